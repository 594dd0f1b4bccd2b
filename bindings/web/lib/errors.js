// Generated from bindings/node/lib/errors.js by bindings/web/esm.mjs: change that file.
/**
 * Status codes of the C ABI and the errors that carry them.
 *
 * Every failing library call throws the subclass for its status, holding the library's
 * own message (what went wrong and where) and the numeric status. STALE is not an
 * error: deliver/complete return `corelogic.STALE`.
 */

const OK = 0;
const STALE_STATUS = 1;
const ERR_JSON = -1;
const ERR_SCHEMA = -2;
const ERR_NOT_FOUND = -3;
const ERR_HANDLE = -4;
const ERR_ARG = -5;
const ERR_IO = -6;
const ERR_CORRUPT = -7;
const ERR_NOMEM = -8;

/** Base class of every error the binding throws. */
class CorelogicError extends Error {
  /**
   * @param {string} message the library's message
   * @param {number|null} status the C status (negative); for errors the binding raises itself, the
   *   class's default (ERR_ARG for ArgumentError, null for LibraryError)
   */
  constructor(message, status = new.target.defaultStatus) {
    const name = status === null ? '' : statusNameOf(status);
    super(name ? `${message} [${name}]` : message);
    this.name = new.target.name;
    /** The C status code, e.g. -2, or null for LibraryError. */
    this.status = status;
    /** The C constant's name, e.g. "CORELOGIC_ERR_SCHEMA" ("" for LibraryError). */
    this.statusName = name;
    /** The library's message alone. */
    this.libraryMessage = message;
  }
}

/** The status of an error the binding raises itself; null: not a library status. */
CorelogicError.defaultStatus = null;

/** The addon or libcorelogic could not be loaded, or their ABI versions differ. */
class LibraryError extends CorelogicError {}
/** Not valid JSON, invalid UTF-8, nested too deep or too large (CORELOGIC_ERR_JSON). */
class JSONError extends CorelogicError {}
/** Valid JSON that is not this feature's event or state (CORELOGIC_ERR_SCHEMA): the message names the JSON path. */
class SchemaError extends CorelogicError {}
/** Unknown feature or query name (CORELOGIC_ERR_NOT_FOUND): the message lists the known names. */
class NotFoundError extends CorelogicError {}
/** The system is closed, or its handle was never valid (CORELOGIC_ERR_HANDLE). */
class HandleError extends CorelogicError {}
/**
 * Any other invalid argument (CORELOGIC_ERR_ARG). The binding also throws it before
 * calling the library for values it cannot pass on: a missing event, a NUL character,
 * a value JSON cannot hold, an effect id that is not an unsigned 64-bit integer.
 */
class ArgumentError extends CorelogicError {}
ArgumentError.defaultStatus = ERR_ARG;
/** A file-system error while reading or writing a journal or snapshot (CORELOGIC_ERR_IO). */
class StorageError extends CorelogicError {}
/** Snapshot or journal content that cannot be used (CORELOGIC_ERR_CORRUPT). */
class CorruptError extends CorelogicError {}
/**
 * The library could not allocate the memory a call needed (CORELOGIC_ERR_NOMEM). After
 * send, deliver or complete the input was applied and only its batch is missing: read
 * the state and the running effects to catch up (the message says so).
 */
class OutOfMemoryError extends CorelogicError {}
/** A patch that is malformed or does not apply (applyPatch, StateMirror): the state is left as it was. */
class PatchError extends CorelogicError {}
/** A runner's condition did not hold in time. */
class TimeoutError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TimeoutError';
  }
}

const BY_STATUS = new Map([
  [ERR_JSON, [JSONError, 'CORELOGIC_ERR_JSON']],
  [ERR_SCHEMA, [SchemaError, 'CORELOGIC_ERR_SCHEMA']],
  [ERR_NOT_FOUND, [NotFoundError, 'CORELOGIC_ERR_NOT_FOUND']],
  [ERR_HANDLE, [HandleError, 'CORELOGIC_ERR_HANDLE']],
  [ERR_ARG, [ArgumentError, 'CORELOGIC_ERR_ARG']],
  [ERR_IO, [StorageError, 'CORELOGIC_ERR_IO']],
  [ERR_CORRUPT, [CorruptError, 'CORELOGIC_ERR_CORRUPT']],
  [ERR_NOMEM, [OutOfMemoryError, 'CORELOGIC_ERR_NOMEM']],
]);

function statusNameOf(status) {
  const known = BY_STATUS.get(status);
  return known ? known[1] : `CORELOGIC_UNKNOWN_STATUS(${status})`;
}

/** The error for a negative status; a code this binding does not know gives the base class. */
function errorForStatus(status, message) {
  const known = BY_STATUS.get(status);
  return known ? new known[0](message, status) : new CorelogicError(message, status);
}

export {
  OK, STALE_STATUS, ERR_JSON, ERR_SCHEMA, ERR_NOT_FOUND, ERR_HANDLE, ERR_ARG, ERR_IO, ERR_CORRUPT, ERR_NOMEM,
  CorelogicError, LibraryError, JSONError, SchemaError, NotFoundError, HandleError, ArgumentError,
  StorageError, CorruptError, OutOfMemoryError, PatchError, TimeoutError, errorForStatus, statusNameOf,
};
