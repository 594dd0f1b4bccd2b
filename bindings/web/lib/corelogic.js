/**
 * corelogic for the web: drive a feature (business logic written once, in Swift) from
 * JavaScript in a browser or in Node.js, through the WebAssembly build of the library
 * (docs/web.md). The same API and error classes as the Node.js binding
 * (bindings/node), so one program runs on either; the one difference is loading, which
 * is asynchronous on the web:
 *
 *     import * as corelogic from './corelogic.js';
 *     await corelogic.load(new URL('./corelogic.wasm', import.meta.url));
 *     const counter = new corelogic.System('counter');
 *     counter.send('increment').state;   // { count: 1 }
 *     counter.close();
 *
 * The host performs every effect: a System says which effects must run (start/cancel
 * commands); a Runner runs them with Promise-returning handlers and feeds their results
 * back. Everything runs on the thread that made the call (the page's, or a worker's).
 * There are no journals and no traces in the browser build: persistence is the host's
 * (docs/web.md, "Persistence").
 */
import * as errors from './errors.js';
import { WasmLibrary, imports } from './wasm.js';
import { applyPatch, StateMirror } from './patch.js';
import { Runner } from './runner.js';

const { ArgumentError, HandleError, LibraryError } = errors;

/** The C ABI version this binding is written against (corelogic.h's CORELOGIC_ABI_VERSION). */
const ABI_VERSION = 1;
/** This binding's version; the library's must be the same. */
const BINDING_VERSION = '0.1.0';
const KIND_COMMAND = 0;
const KIND_STATE = 1;

/** Output modes of System#setOutput: whole states (the default) or RFC 6902 patches. */
const Output = Object.freeze({ FULL: 0, PATCH: 1 });

let library = null;

/** Systems with handlers, by handle: the module's handler names the handle. */
const handled = new Map();

const host = {
  dispatch(kind, handle, json) {
    const ref = handled.get(handle);
    const system = ref && ref.deref();
    if (system) system._dispatch(kind, json);
  },
};

/**
 * Loads corelogic.wasm once: a URL (fetched), a Response, bytes, or a compiled
 * WebAssembly.Module. Later calls return at once. Must finish before any other call.
 * @throws {LibraryError} the module cannot be loaded, or its ABI version is not ABI_VERSION
 */
async function load(source) {
  if (library !== null) return;
  let module;
  try {
    if (source instanceof WebAssembly.Module) module = source;
    else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) module = await WebAssembly.compile(source);
    else {
      const response = typeof Response !== 'undefined' && source instanceof Response ? source : await fetch(source);
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${response.url}`);
      module = await WebAssembly.compile(await response.arrayBuffer());
    }
  } catch (error) {
    throw new LibraryError(`cannot load corelogic.wasm: ${error.message}`);
  }
  let created = null;
  const instance = await WebAssembly.instantiate(module, imports(() => created));
  created = new WasmLibrary(instance, host);
  if (created.abiVersion() !== ABI_VERSION) {
    throw new LibraryError(`corelogic.wasm has C ABI version ${created.abiVersion()}, this binding needs ${ABI_VERSION}`);
  }
  library = created;
}

function lib() {
  if (library === null) throw new LibraryError('corelogic.wasm is not loaded: await corelogic.load(url) first');
  return library;
}

// A system that is garbage-collected without close() is freed here.
const finalizer = new FinalizationRegistry((cell) => {
  const handle = cell.handle;
  if (handle === 0n) return;
  cell.handle = 0n;
  handled.delete(handle);
  try { lib().systemFree(handle); } catch (_) { /* already freed */ }
});

// ---- encoding ---------------------------------------------------------------------

/** JSON text passed through unchanged (see raw()). */
class RawJSON {
  constructor(text) {
    if (typeof text !== 'string') throw new ArgumentError('raw() needs JSON text (a string)');
    this.text = text;
    Object.freeze(this);
  }
  toString() { return this.text; }
}

/** Wraps JSON text so that send/deliver pass it to the library byte for byte. */
function raw(text) {
  return new RawJSON(text);
}

function rejectNonFinite(key, value) {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new ArgumentError(`${value} is not a JSON number`);
  }
  return value;
}

/**
 * The library's bytes of a string: the string itself when it is well-formed UTF-16
 * (written as UTF-8), else bytes in which each lone surrogate keeps its three-byte form,
 * so the library sees invalid UTF-8 and says so.
 */
function toLibrary(text, what) {
  if (text.includes('\0')) throw new ArgumentError(`${what} contains a NUL character`);
  if (text.isWellFormed ? text.isWellFormed() : !/[\uD800-\uDFFF]/.test(text)) return text;
  const bytes = [];
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) { code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00); i++; }
    }
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return Uint8Array.from(bytes);
}

/** JSON text of a value, or an ArgumentError for what JSON cannot hold. */
function encode(value, what) {
  if (value instanceof RawJSON) return toLibrary(value.text, what);
  if (value instanceof Uint8Array) {
    if (value.includes(0)) throw new ArgumentError(`${what}: JSON bytes contain a NUL byte`);
    return value;
  }
  if (value === undefined) throw new ArgumentError(`${what} is missing`);
  let text;
  try {
    text = JSON.stringify(value, typeof value === 'object' && value !== null ? rejectNonFinite : undefined);
  } catch (error) {
    if (error instanceof ArgumentError) throw new ArgumentError(`${what}: ${error.libraryMessage}`);
    throw new ArgumentError(`${what} is not JSON-serializable: ${error.message}`);
  }
  if (text === undefined) throw new ArgumentError(`${what} is not JSON-serializable: ${typeof value}`);
  if (typeof value === 'number' && !Number.isFinite(value)) throw new ArgumentError(`${what}: ${value} is not a JSON number`);
  return text;
}

function eventText(event) {
  if (typeof event === 'string') return toLibrary(JSON.stringify(event), 'event');
  return encode(event, 'event');
}

function nameText(name, what) {
  if (typeof name !== 'string') throw new ArgumentError(`${what} must be a string, not ${typeof name}`);
  return toLibrary(name, what);
}

const MAX_U64 = (1n << 64n) - 1n;

function effectId(id) {
  if (typeof id === 'bigint') {
    if (id >= 0n && id <= MAX_U64) return id;
  } else if (Number.isSafeInteger(id) && id >= 0) {
    return id;
  }
  throw new ArgumentError(`effect id ${String(id)} is not an unsigned 64-bit integer`);
}

// ---- results ----------------------------------------------------------------------

/**
 * What one call returned: the state after its last step (or, in patch mode, the patch
 * to it), the commands of every step, the step count.
 */
class Batch {
  #json;

  constructor(value, json) {
    this.#json = json;
    /** The state after the last step; undefined in patch mode. */
    this.state = value.state;
    /** The commands of every step, in order: {cancel: id} or {start: {id, feedback, request}}. */
    this.effects = value.effects;
    /** How many steps the call ran (0 for a creation batch or a call queued from a handler). */
    this.steps = value.steps;
    if ('patch' in value) {
      /** Patch mode: the revision this batch's state has. */
      this.revision = value.revision;
      /** Patch mode: the revision the patch applies to. */
      this.base = value.base;
      /** Patch mode: the RFC 6902 operations from `base` to `revision` (see StateMirror). */
      this.patch = value.patch;
    }
    if ('queries' in value) {
      /** The watched queries whose value changed since the previous batch (see watchQueries). */
      this.queries = value.queries;
    }
  }

  /** The `start` commands' payloads. */
  get started() {
    return this.effects.filter((command) => 'start' in command).map((command) => command.start);
  }

  /** The ids of the effects this batch cancels. */
  get cancelled() {
    return this.effects.filter((command) => 'cancel' in command).map((command) => command.cancel);
  }

  /** The library's own text, for byte-level comparisons and integers beyond 2^53. */
  get json() {
    return this.#json;
  }

  /** Always false: a Batch is not STALE. */
  get stale() {
    return false;
  }
}

function parseBatch(text) {
  return new Batch(JSON.parse(text), text);
}

/** What deliver/complete return for an effect that is not running: the input was dropped. */
const STALE = Object.freeze({ stale: true, status: errors.STALE_STATUS, toString: () => 'corelogic.STALE' });

// ---- systems ----------------------------------------------------------------------

/**
 * One running instance of a feature (a corelogic_system handle in the module).
 *
 * Close it with close(); a system that is garbage-collected unclosed is freed too.
 * After close(), every method throws HandleError.
 */
class System {
  /**
   * @param {string} feature the feature's name, e.g. "search" (see features())
   * @param {object|RawJSON|null} [state] the first state; null or omitted for the feature's own
   * @throws {NotFoundError} unknown feature
   * @throws {JSONError|SchemaError} the state is not valid JSON / not this feature's state
   */
  constructor(feature, state = null) {
    const name = nameText(feature, 'feature');
    const stateText = state === null || state === undefined ? null : encode(state, 'state');
    const [handle, batch] = lib().systemNew(name, stateText);
    this._feature = feature;
    this._cell = { handle };
    this._commandHandler = null;
    this._stateHandler = null;
    this._output = Output.FULL;
    /** The creation batch: the first state and the effects it asks for (started at once). */
    this.initialBatch = parseBatch(batch);
    finalizer.register(this, this._cell, this._cell);
  }

  /** The feature's name. */
  get feature() { return this._feature; }

  /** True once close() has run. */
  get closed() { return this._cell.handle === 0n; }

  _handle() {
    const handle = this._cell.handle;
    if (handle === 0n) throw new HandleError(`the ${this._feature} system is closed`, errors.ERR_HANDLE);
    return handle;
  }

  /** Frees the system now. Its running effects are forgotten. Idempotent. */
  close() {
    const handle = this._cell.handle;
    if (handle === 0n) return;
    this._cell.handle = 0n;
    finalizer.unregister(this._cell);
    handled.delete(handle);
    lib().systemFree(handle);
  }

  /**
   * Sends an event: a case name ('increment'), an object ({queryChanged: {text: 'swift'}})
   * or raw(jsonText). Returns the Batch of the steps this call ran.
   * @throws {JSONError|SchemaError} not valid JSON / not one of this feature's events (state unchanged)
   */
  send(event) {
    return parseBatch(lib().send(this._handle(), eventText(event), true));
  }

  /** Sends JSON text byte for byte (the same as send(raw(text))). */
  sendJson(text) {
    return this.send(raw(text));
  }

  /**
   * Delivers an event produced by the running effect `effectId` (a Number or BigInt).
   * Returns the Batch, or STALE if that effect is not running: the event was dropped.
   */
  deliver(effectId_, event) {
    const result = lib().deliver(this._handle(), effectId(effectId_), eventText(event), true);
    return result === null ? STALE : parseBatch(result);
  }

  /** Reports that the effect finished and will deliver nothing more. Returns the Batch, or STALE. */
  complete(effectId_) {
    const result = lib().complete(this._handle(), effectId(effectId_), true);
    return result === null ? STALE : parseBatch(result);
  }

  /** deliver without a batch (runners read the handlers instead); false if stale. */
  _deliverQuietly(id, event) {
    return lib().deliver(this._handle(), effectId(id), eventText(event), false) !== null;
  }

  _completeQuietly(id) {
    return lib().complete(this._handle(), effectId(id), false) !== null;
  }

  /** The current state (a fresh object on every read). */
  get state() {
    return JSON.parse(lib().state(this._handle()));
  }

  /** The current state as the library's compact JSON: to store, compare byte for byte or restore from. */
  get stateJson() {
    return lib().state(this._handle());
  }

  /**
   * The value of the state query `name`, e.g. "isLoadingNextPage".
   * @throws {NotFoundError} unknown query (the message lists the valid ones)
   */
  query(name) {
    return JSON.parse(this.queryJson(name));
  }

  /** The value of a state query as the library's JSON text. */
  queryJson(name) {
    return lib().query(this._handle(), nameText(name, 'query name'));
  }

  /** The feature's invariants that do not hold now: [{name, message}], [] when all hold. */
  check() {
    return JSON.parse(lib().check_(this._handle()));
  }

  /** The effects running now, oldest first: [{id, feedback, request}]. */
  get effects() {
    return JSON.parse(lib().effects(this._handle()));
  }

  /**
   * Receives each effect command as it is produced; null removes the handler. It runs
   * synchronously during the call that produced the command; it may call this system
   * (that call is queued and runs before the outer call returns). What it throws is
   * reported with console.error and otherwise ignored.
   */
  onCommand(handler) {
    this._setHandler(KIND_COMMAND, handler, 'command');
    this._commandHandler = handler || null;
  }

  /** Receives the state after each step; null removes it. The rules of onCommand apply. */
  onState(handler) {
    this._setHandler(KIND_STATE, handler, 'state');
    this._stateHandler = handler || null;
  }

  _setHandler(kind, handler, what) {
    if (handler !== null && handler !== undefined && typeof handler !== 'function') {
      throw new ArgumentError(`the ${what} handler must be a function or null`);
    }
    const handle = this._handle();
    if (handler) handled.set(handle, new WeakRef(this));
    lib().setHandler(handle, kind, Boolean(handler));
  }

  _dispatch(kind, json) {
    const handler = kind === KIND_COMMAND ? this._commandHandler : this._stateHandler;
    if (!handler) return;
    try {
      handler(JSON.parse(json));
    } catch (error) {
      console.error(`corelogic ${kind === KIND_COMMAND ? 'command' : 'state'} handler of the ${this._feature} system threw:`, error);
    }
  }

  /**
   * Sets the output mode: Output.FULL (whole states, the default) or Output.PATCH.
   * Returns {revision, state}: what the next patch applies to.
   * @throws {ArgumentError} an unknown mode (nothing changes)
   */
  setOutput(mode) {
    if (mode !== Output.FULL && mode !== Output.PATCH) {
      throw new ArgumentError(`unknown output mode ${String(mode)}; use corelogic.Output`);
    }
    const baseline = JSON.parse(lib().setOutput(this._handle(), mode));
    this._output = mode;
    return baseline;
  }

  /** The output mode set last (Output.FULL or Output.PATCH). */
  get output() {
    return this._output;
  }

  /** The current state and its revision, {revision, state}: how a host that missed a patch catches up. */
  resync() {
    return JSON.parse(lib().resync(this._handle()));
  }

  /**
   * Watches state queries: from now on every batch carries `queries`, the watched ones
   * whose value changed since the previous batch. [] stops watching. Returns the current
   * value of each watched query.
   * @throws {NotFoundError} an unknown name (nothing changes)
   */
  watchQueries(names) {
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
      throw new ArgumentError('watchQueries takes an array of query names');
    }
    return JSON.parse(lib().watchQueries(this._handle(), toLibrary(JSON.stringify(names), 'query names')));
  }

  toString() {
    return `corelogic.System(${this._feature}${this.closed ? ', closed' : ''})`;
  }
}

if (typeof Symbol.dispose === 'symbol') {
  System.prototype[Symbol.dispose] = function dispose() { this.close(); };
}

/** The library's version, "MAJOR.MINOR.PATCH". */
function version() { return lib().version(); }
/** The loaded module's C ABI version. */
function abiVersion() { return lib().abiVersion(); }
/** The C constant's name of a status. */
function statusName(status) { return lib().statusName(status); }
/** Every feature: [{name, events, feedbacks: [{name, kind}], queries, invariants, stateVersion}]. */
function features() { return JSON.parse(lib().features()); }

export * from './errors.js';
export {
  load, ABI_VERSION, BINDING_VERSION, Output, STALE, Batch, System, RawJSON, raw, version, abiVersion,
  statusName, features, applyPatch, StateMirror, Runner,
};
