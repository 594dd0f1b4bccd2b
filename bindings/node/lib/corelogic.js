'use strict';
/**
 * corelogic for Node.js: drive a feature (business logic written once, in Swift) from
 * JavaScript.
 *
 *     const corelogic = require('corelogic');
 *     const counter = new corelogic.System('counter');
 *     counter.send('increment').state;   // { count: 1 }
 *     counter.close();
 *
 * The host performs every effect: a System says which effects must run (start/cancel
 * commands); a Runner runs them with Promise-returning handlers and feeds their results
 * back. Everything runs on the JavaScript thread that made the call: handlers are called
 * synchronously during it, never from another thread.
 *
 * The native addon is found through the CORELOGIC_NODE_ADDON environment variable, then
 * `build/corelogic.node` in this package, then the repository's `.build/node/corelogic.node`.
 * The addon does not link libcorelogic: it loads the app's library by path (dlopen,
 * RTLD_LOCAL) on first use, from load(path), else the CORELOGIC_LIBRARY environment
 * variable, else the library a package made by `make package` carries (`native/`), else
 * `libcorelogic.so` on the system's loader path.
 */

const fs = require('fs');
const path = require('path');
const errors = require('./errors');

const { ArgumentError, HandleError, LibraryError, errorForStatus } = errors;

const ADDON_VARIABLE = 'CORELOGIC_NODE_ADDON';
const LIBRARY_VARIABLE = 'CORELOGIC_LIBRARY';
const KIND_COMMAND = 0;
const KIND_STATE = 1;

/** Durability modes of System#openJournal (docs/persistence.md). */
const Durability = Object.freeze({ EVERY_INPUT: 0, INTERVAL: 1 });

/** Output modes of System#setOutput: whole states (the default) or RFC 6902 patches. */
const Output = Object.freeze({ FULL: 0, PATCH: 1 });

function addonCandidates() {
  const found = [];
  if (process.env[ADDON_VARIABLE]) found.push(process.env[ADDON_VARIABLE]);
  found.push(path.join(__dirname, '..', 'build', 'corelogic.node'));
  for (let dir = path.resolve(__dirname); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.build', 'node', 'corelogic.node');
    if (fs.existsSync(candidate)) { found.push(candidate); break; }
    if (path.dirname(dir) === dir) break;
  }
  return found;
}

function loadAddon() {
  const tried = addonCandidates();
  const explicit = process.env[ADDON_VARIABLE];
  for (const candidate of tried) {
    if (!fs.existsSync(candidate)) {
      if (candidate === explicit) throw new LibraryError(`${ADDON_VARIABLE}=${explicit} does not exist`);
      continue;
    }
    let addon;
    try {
      addon = require(candidate);
    } catch (error) {
      throw new LibraryError(`cannot load ${candidate}: ${error.message}`);
    }
    return addon;
  }
  throw new LibraryError(`cannot find the corelogic addon; tried: ${tried.join(', ')}. Build it with ` +
    `\`make node\` in the repository, or set ${ADDON_VARIABLE} to its path`);
}

const addon = loadAddon();
/** The C ABI version this binding was built for (the addon's corelogic.h); a library with
 * another one is refused when it is loaded. */
const ABI_VERSION = addon.ABI_VERSION;
/** The binding's version, the corelogic.h its addon was built from (package.json says the same). */
const BINDING_VERSION = addon.VERSION;
let loaded = null; // the path libcorelogic was loaded from

/**
 * Loads libcorelogic (the app's build of the library) from `libraryPath`, before any other
 * call; without it the first call loads it from CORELOGIC_LIBRARY, else `libcorelogic.so`
 * on the loader path. One library per process: another path afterwards throws LibraryError.
 */
function load(libraryPath) {
  if (typeof libraryPath !== 'string' || libraryPath === '') throw new ArgumentError('library path must be a non-empty string');
  if (loaded !== null) {
    if (loaded === libraryPath) return;
    throw new LibraryError(`libcorelogic is already loaded from ${loaded}; cannot load ${libraryPath}`);
  }
  // The addon refuses a library whose C ABI version is not ABI_VERSION, naming both.
  const error = addon.open(libraryPath);
  if (error !== null) throw new LibraryError(`cannot load libcorelogic (${libraryPath}): ${error}`);
  loaded = libraryPath;
}

/**
 * The app's library a package made by `make package` carries: `native/app-library` names
 * the file beside it. null in a checkout.
 */
function bundledLibrary() {
  const directory = path.join(__dirname, '..', 'native');
  let name;
  try {
    name = fs.readFileSync(path.join(directory, 'app-library'), 'utf8').trim();
  } catch (_) {
    return null;
  }
  return name ? path.join(directory, name) : null;
}

/** The addon, with the library loaded. */
function lib() {
  if (loaded === null) load(process.env[LIBRARY_VARIABLE] || bundledLibrary() || 'libcorelogic.so');
  return addon;
}

/** Systems with handlers, by handle: the C callback's context is the handle. */
const handled = new Map();

addon.setCallbacks(
  (status, message) => errorForStatus(status, message),
  (kind, handle, json) => {
    const ref = handled.get(handle);
    const system = ref && ref.deref();
    if (system) system._dispatch(kind, json);
  },
);

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
 * (the addon writes it as UTF-8), else a Buffer in which each lone surrogate keeps its
 * three-byte form, so the library sees invalid UTF-8 and says so.
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
  return Buffer.from(bytes);
}

/** JSON text of a value, or an ArgumentError for what JSON cannot hold. */
function encode(value, what) {
  if (value instanceof RawJSON) return toLibrary(value.text, what);
  if (Buffer.isBuffer(value)) {
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
    this._init(feature, handle, batch, null);
  }

  _init(feature, handle, batch, report) {
    this._feature = feature;
    this._cell = { handle };
    this._commandHandler = null;
    this._stateHandler = null;
    this._output = Output.FULL;
    /** The creation batch: the first state and the effects it asks for (started at once). */
    this.initialBatch = parseBatch(batch);
    /** restore()'s report; null for a new system. */
    this.restoreReport = report;
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

  /** Frees the native system now. Its running effects are forgotten. Idempotent. */
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
   * (batches carry {revision, base, patch}, the state handler {revision, base, patch}).
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

  // -- persistence (docs/persistence.md) ---------------------------------------------

  /**
   * Journals every input this system accepts into `directory` (created one level deep;
   * it must not hold a journal yet: use System.restore).
   * @throws {ArgumentError} the directory already holds a journal, or this system has one
   * @throws {StorageError} the directory cannot be created, locked or written
   */
  openJournal(directory, durability = Durability.EVERY_INPUT) {
    if (durability !== Durability.EVERY_INPUT && durability !== Durability.INTERVAL) {
      throw new ArgumentError(`unknown durability ${String(durability)}; use corelogic.Durability`);
    }
    lib().openJournal(this._handle(), nameText(directory, 'journal directory'), durability);
  }

  /** Writes a snapshot and starts a fresh journal segment. */
  checkpoint() { lib().checkpoint(this._handle()); }

  /** Forces the journal's records to stable storage now. */
  syncJournal() { lib().syncJournal(this._handle()); }

  /** Stops journaling; the directory stays restorable. */
  closeJournal() { lib().closeJournal(this._handle()); }

  /**
   * Restores a system from a journal directory; its initialBatch starts exactly the
   * effects the restored state asks for, and it journals on into the same directory.
   * @throws {StorageError} missing or unreadable directory, or another journal holds it
   * @throws {CorruptError} damaged or inconsistent files (the message names file and line)
   */
  static restore(feature, directory) {
    const [handle, report, batch] = lib().restore(nameText(feature, 'feature'), nameText(directory, 'journal directory'));
    const system = Object.create(System.prototype);
    system._init(feature, handle, batch, JSON.parse(report));
    return system;
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

const { applyPatch, StateMirror } = require('./patch');

module.exports = {
  load,
  ABI_VERSION, BINDING_VERSION, Durability, Output, STALE, Batch, System, RawJSON, raw, version, abiVersion, statusName, features,
  applyPatch, StateMirror, ...errors,
};

// The runner needs System; it is attached after the exports exist.
module.exports.Runner = require('./runner').Runner;
