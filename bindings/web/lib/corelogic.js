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
import * as shared from './system.js';
import { LibraryError } from './errors.js';
import { WasmLibrary, imports } from './wasm.js';
import { applyPatch, StateMirror } from './patch.js';
import { Runner } from './runner.js';

/** The C ABI version this binding is written against (corelogic.h's CORELOGIC_ABI_VERSION). */
const ABI_VERSION = 1;
/** This binding's version; the library's must be the same. */
const BINDING_VERSION = '0.1.0';

let library = null;

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
  created = new WasmLibrary(instance, { dispatch: shared.dispatch });
  if (created.abiVersion() !== ABI_VERSION) {
    throw new LibraryError(`corelogic.wasm has C ABI version ${created.abiVersion()}, this binding needs ${ABI_VERSION}`);
  }
  library = created;
}

shared.useLibrary(() => {
  if (library === null) throw new LibraryError('corelogic.wasm is not loaded: await corelogic.load(url) first');
  return library;
});

const { Output, STALE, Batch, System, RawJSON, raw, version, abiVersion, statusName, features } = shared;

export * from './errors.js';
export {
  load, ABI_VERSION, BINDING_VERSION, Output, STALE, Batch, System, RawJSON, raw, version, abiVersion,
  statusName, features, applyPatch, StateMirror, Runner,
};
