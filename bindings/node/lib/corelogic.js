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
const shared = require('./system');

const { ArgumentError, LibraryError, errorForStatus } = errors;
const { nameText } = shared;

const ADDON_VARIABLE = 'CORELOGIC_NODE_ADDON';
const LIBRARY_VARIABLE = 'CORELOGIC_LIBRARY';

/** Durability modes of System#openJournal (docs/persistence.md). */
const Durability = Object.freeze({ EVERY_INPUT: 0, INTERVAL: 1 });

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

shared.useLibrary(lib);
addon.setCallbacks((status, message) => errorForStatus(status, message), shared.dispatch);

/**
 * One running instance of a feature (a corelogic_system handle): the calls every binding
 * has (bindings/node/lib/system.js), and journals.
 */
class System extends shared.System {
  /**
   * @param {string} feature the feature's name, e.g. "search" (see features())
   * @param {object|RawJSON|null} [state] the first state; null or omitted for the feature's own
   * @throws {NotFoundError} unknown feature
   * @throws {JSONError|SchemaError} the state is not valid JSON / not this feature's state
   */
  constructor(feature, state = null) {
    super(feature, state);
    /** restore()'s report; null for a new system. */
    this.restoreReport = null;
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
    system._init(feature, handle, batch);
    system.restoreReport = JSON.parse(report);
    return system;
  }
}

const { applyPatch, StateMirror } = require('./patch');
const { Runner } = require('./runner');
const { Output, STALE, Batch, RawJSON, raw, version, abiVersion, statusName, features } = shared;

module.exports = {
  load,
  ABI_VERSION, BINDING_VERSION, Durability, Output, STALE, Batch, System, RawJSON, raw, version, abiVersion, statusName, features,
  applyPatch, StateMirror, Runner, ...errors,
};
