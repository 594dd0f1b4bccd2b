'use strict';
/**
 * What the Node.js binding and the web binding share: the encoding of values for the
 * library, Batch, STALE, System and the library-wide calls. Each binding's corelogic.js
 * gives them its library with useLibrary (the native addon, or the WebAssembly module's
 * calls, which have the same methods) and adds what only it has (loading; journals and
 * traces natively). bindings/web/esm.mjs writes this file as the web binding's ES module.
 */
const { ArgumentError, HandleError, LibraryError, STALE_STATUS, ERR_HANDLE } = require('./errors');

const KIND_COMMAND = 0;
const KIND_STATE = 1;

/** Output modes of System#setOutput: whole states (the default) or RFC 6902 patches. */
const Output = Object.freeze({ FULL: 0, PATCH: 1 });

let library = () => { throw new LibraryError('no corelogic library is loaded'); };

/** Sets where the calls go: `get` returns the library's calls, loading it on first use. */
function useLibrary(get) {
  library = get;
}

function lib() {
  return library();
}

/** Systems with handlers, by handle: the library's callback names the handle. */
const handled = new Map();

/** Hands what the library's callback received (a command or a state) to its system. */
function dispatch(kind, handle, json) {
  const ref = handled.get(handle);
  const system = ref && ref.deref();
  if (system) system._dispatch(kind, json);
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

/** Encoded case names ('increment' -> '"increment"'): a feature has few. */
const names = new Map();

function eventText(event) {
  if (typeof event === 'string') {
    let text = names.get(event);
    if (text === undefined) {
      text = toLibrary(JSON.stringify(event), 'event');
      if (names.size < 1024) names.set(event, text);
    }
    return text;
  }
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
    /** The state after the last step; in patch mode, only when it was sent whole (a small
     * state, see StateMirror), else undefined. */
    this.state = value.state;
    /** The commands of every step, in order: {cancel: id} or {start: {id, feedback, request}}. */
    this.effects = value.effects;
    /** How many steps the call ran (0 for a creation batch or a call queued from a handler). */
    this.steps = value.steps;
    if ('revision' in value) {
      /** Patch mode: the revision this batch's state has. */
      this.revision = value.revision;
      if ('patch' in value) {
        /** Patch mode: the revision the patch applies to. */
        this.base = value.base;
        /** Patch mode: the RFC 6902 operations from `base` to `revision` (see StateMirror). */
        this.patch = value.patch;
      }
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
const STALE = Object.freeze({ stale: true, status: STALE_STATUS, toString: () => 'corelogic.STALE' });

// ---- systems ----------------------------------------------------------------------

/**
 * One running instance of a feature (a corelogic_system handle).
 *
 * Close it with close() (or `using` where supported); a system that is garbage-collected
 * unclosed is freed too. After close(), every method throws HandleError.
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
    this._init(feature, handle, batch);
  }

  _init(feature, handle, batch) {
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
    if (handle === 0n) throw new HandleError(`the ${this._feature} system is closed`, ERR_HANDLE);
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

  /**
   * The feature's invariants that do not hold in the current state, in declaration order:
   * [{name, message}], [] when every one holds (corelogic_system_check).
   */
  check() {
    return JSON.parse(lib().check(this._handle()));
  }

  /** The effects running now, oldest first: [{id, feedback, request}]. */
  get effects() {
    return JSON.parse(lib().effects(this._handle()));
  }

  /**
   * Receives each effect command as it is produced; null removes the handler.
   *
   * The handler runs synchronously during the call that produced the command, while the
   * system is locked. It may call this system (deliver an answer at once): that call is
   * queued, returns a batch of 0 steps and runs before the outer call returns. What it
   * throws is reported with console.error and otherwise ignored. Commands already
   * produced (the creation batch) are not replayed.
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

  // -- output: patches and watched queries (corelogic.h, "Output") --------------------

  /**
   * Sets the output mode: Output.FULL (whole states, the default) or Output.PATCH
   * (batches carry {revision, base, patch}, the state handler {revision, base, patch};
   * a state of at most 64 bytes of JSON is sent whole instead, {revision, state}).
   * Returns {revision, state}: what the next patch applies to (a new baseline, also when
   * already in patch mode). The creation batch always carries the whole state.
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

  /**
   * The current state and its revision, {revision, state}; in patch mode the next patch
   * continues from it. How a host that missed a patch catches up.
   */
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
/** The loaded library's C ABI version. */
function abiVersion() { return lib().abiVersion(); }
/** The C constant's name of a status. */
function statusName(status) { return lib().statusName(status); }
/** Every feature: [{name, events, feedbacks: [{name, kind}], queries, invariants, stateVersion}]. */
function features() { return JSON.parse(lib().features()); }

module.exports = {
  useLibrary, dispatch, Output, STALE, Batch, System, RawJSON, raw, nameText,
  version, abiVersion, statusName, features,
};
