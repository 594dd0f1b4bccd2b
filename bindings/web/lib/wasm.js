/**
 * The WebAssembly module's C ABI (include/corelogic.h) as JavaScript calls: strings are
 * copied into the module's memory as NUL-terminated UTF-8 (allocated with its exported
 * malloc, freed after the call), out-parameters are words in its memory, returned
 * strings are read and then freed with corelogic_free, as the header's ownership rules
 * say. A negative status throws the error class of that status with the library's
 * message (corelogic_last_error). The same calls as the Node.js addon, so the System of
 * corelogic.js reads the same over either.
 */
import { errorForStatus, LibraryError } from './errors.js';

const OK = 0;
const STALE_STATUS = 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

export class WasmLibrary {
  /**
   * @param {WebAssembly.Instance} instance an instance of corelogic.wasm
   * @param {{dispatch: (kind: number, handle: bigint, json: string) => void}} host
   */
  constructor(instance, host) {
    this.x = instance.exports;
    this.host = host;
    this.out = this.x.malloc(16); // two out-parameters: a word and a 64-bit handle
    this.handlerFunction = this.x.corelogic_wasm_host_handler();
    this.contexts = new Map(); // context word -> [kind, handle]
    this.contextOf = new Map(); // `${kind}:${handle}` -> context word
  }

  get bytes() { return new Uint8Array(this.x.memory.buffer); }

  /** A NUL-terminated copy of `text` (a string or bytes) in the module's memory. */
  cString(text) {
    const bytes = typeof text === 'string' ? encoder.encode(text) : text;
    const pointer = this.x.malloc(bytes.length + 1);
    if (pointer === 0) throw new LibraryError('the WebAssembly module is out of memory');
    const memory = this.bytes;
    memory.set(bytes, pointer);
    memory[pointer + bytes.length] = 0;
    return pointer;
  }

  /** The string at `pointer` (NUL-terminated UTF-8). */
  readString(pointer) {
    const memory = this.bytes;
    const end = memory.indexOf(0, pointer);
    return decoder.decode(memory.subarray(pointer, end < 0 ? memory.length : end));
  }

  word(offset = 0) { return new Uint32Array(this.x.memory.buffer, this.out + offset, 1)[0]; }

  clearOut() { new Uint32Array(this.x.memory.buffer, this.out, 4).fill(0); }

  /** The string an out-parameter received, freed in the module (null for none). */
  takeString(offset = 0) {
    const pointer = this.word(offset);
    if (pointer === 0) return null;
    const text = this.readString(pointer);
    this.x.corelogic_free(pointer);
    return text;
  }

  checked(status) {
    if (status < 0) throw errorForStatus(status, this.readString(this.x.corelogic_last_error()));
    return status;
  }

  /** Runs `call` with each string argument copied in, freeing them afterwards. */
  withStrings(texts, call) {
    const pointers = texts.map((text) => (text === null ? 0 : this.cString(text)));
    try {
      return call(...pointers);
    } finally {
      for (const pointer of pointers) if (pointer !== 0) this.x.free(pointer);
    }
  }

  version() { return this.readString(this.x.corelogic_version()); }
  abiVersion() { return this.x.corelogic_abi_version(); }
  statusName(status) { return this.readString(this.x.corelogic_status_name(status)); }

  features() {
    this.clearOut();
    this.checked(this.x.corelogic_features(this.out));
    return this.takeString();
  }

  systemNew(name, stateText) {
    this.clearOut();
    this.withStrings([name, stateText], (feature, state) =>
      this.checked(this.x.corelogic_system_new(feature, state, this.out + 8, this.out)));
    const handle = new BigUint64Array(this.x.memory.buffer, this.out + 8, 1)[0];
    return [handle, this.takeString()];
  }

  systemFree(handle) {
    for (const kind of [0, 1]) this.forgetContext(kind, handle);
    this.checked(this.x.corelogic_system_free(handle));
  }

  /** A batch string, or null for STALE (with `wantBatch` false: "" for OK). */
  batchCall(call, wantBatch) {
    this.clearOut();
    const status = this.checked(call(wantBatch ? this.out : 0));
    if (status === STALE_STATUS) return null;
    return wantBatch ? this.takeString() : '';
  }

  send(handle, text, wantBatch) {
    return this.withStrings([text], (event) =>
      this.batchCall((out) => this.x.corelogic_system_send(handle, event, out), wantBatch));
  }

  deliver(handle, id, text, wantBatch) {
    return this.withStrings([text], (event) =>
      this.batchCall((out) => this.x.corelogic_system_deliver(handle, BigInt(id), event, out), wantBatch));
  }

  complete(handle, id, wantBatch) {
    return this.batchCall((out) => this.x.corelogic_system_complete(handle, BigInt(id), out), wantBatch);
  }

  stringCall(call) {
    this.clearOut();
    this.checked(call(this.out));
    return this.takeString();
  }

  state(handle) { return this.stringCall((out) => this.x.corelogic_system_state(handle, out)); }
  effects(handle) { return this.stringCall((out) => this.x.corelogic_system_effects(handle, out)); }
  check(handle) { return this.stringCall((out) => this.x.corelogic_system_check(handle, out)); }
  setOutput(handle, mode) { return this.stringCall((out) => this.x.corelogic_system_set_output(handle, mode, out)); }
  resync(handle) { return this.stringCall((out) => this.x.corelogic_system_resync(handle, out)); }

  query(handle, name) {
    return this.withStrings([name], (query) => this.stringCall((out) => this.x.corelogic_system_query(handle, query, out)));
  }

  watchQueries(handle, namesJSON) {
    return this.withStrings([namesJSON], (names) =>
      this.stringCall((out) => this.x.corelogic_system_watch_queries(handle, names, out)));
  }

  /** Handlers: the module's one C handler calls back with a context naming kind and system. */
  setHandler(handle, kind, on) {
    const call = kind === 0 ? this.x.corelogic_system_on_command : this.x.corelogic_system_on_state;
    if (!on) {
      this.checked(call(handle, 0, 0));
      this.forgetContext(kind, handle);
      return;
    }
    const key = `${kind}:${handle}`;
    let context = this.contextOf.get(key);
    if (context === undefined) {
      context = this.x.malloc(1); // a unique address, never read
      this.contextOf.set(key, context);
      this.contexts.set(context, [kind, handle]);
    }
    this.checked(call(handle, this.handlerFunction, context));
  }

  forgetContext(kind, handle) {
    const key = `${kind}:${handle}`;
    const context = this.contextOf.get(key);
    if (context === undefined) return;
    this.contextOf.delete(key);
    this.contexts.delete(context);
    this.x.free(context);
  }

  /** The module's imported handler: a command or a state for the system of `context`. */
  handler(context, pointer) {
    const target = this.contexts.get(context);
    if (target) this.host.dispatch(target[0], target[1], this.readString(pointer));
  }
}

/** The imports corelogic.wasm needs, bound to the library once it exists. */
export function imports(getLibrary) {
  return {
    env: {
      // Decimal text to a double (Wasm/runtime.c): Number() rounds correctly, as strtod does.
      corelogic_wasm_parse_double(pointer, length) {
        const library = getLibrary();
        return Number(decoder.decode(library.bytes.subarray(pointer, pointer + length)));
      },
      corelogic_wasm_handler(context, pointer) { getLibrary().handler(context, pointer); },
    },
  };
}

export { OK, STALE_STATUS };
