package dev.corelogic;

/**
 * Base class of every exception the binding throws. Each failing library call throws the
 * subclass for its status, carrying the library's own message (what went wrong and
 * where, e.g. {@code "corelogic_system_send: counter event: $: unknown case 'jump'..."}).
 * Unchecked, like the JDK's own argument and state exceptions. {@code STALE} is not an
 * error: it is reported by {@link Batch#stale()}.
 */
public class CorelogicException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** {@code CORELOGIC_ERR_JSON}. */
    public static final int ERR_JSON = -1;
    /** {@code CORELOGIC_ERR_SCHEMA}. */
    public static final int ERR_SCHEMA = -2;
    /** {@code CORELOGIC_ERR_NOT_FOUND}. */
    public static final int ERR_NOT_FOUND = -3;
    /** {@code CORELOGIC_ERR_HANDLE}. */
    public static final int ERR_HANDLE = -4;
    /** {@code CORELOGIC_ERR_ARG}. */
    public static final int ERR_ARG = -5;
    /** {@code CORELOGIC_ERR_IO}. */
    public static final int ERR_IO = -6;
    /** {@code CORELOGIC_ERR_CORRUPT}. */
    public static final int ERR_CORRUPT = -7;
    /** {@code CORELOGIC_ERR_NOMEM}. */
    public static final int ERR_NOMEM = -8;

    private final int status;
    private final String libraryMessage;

    CorelogicException(int status, String message) {
        this(status, message, null);
    }

    CorelogicException(int status, String message, Throwable cause) {
        super(message + (status != 0 ? " [" + nameOf(status) + "]" : ""), cause);
        this.status = status;
        this.libraryMessage = message;
    }

    /** The C status code (negative), or 0 for errors of the binding itself ({@link LibraryException}). */
    public int status() {
        return status;
    }

    /** The C constant's name, e.g. {@code "CORELOGIC_ERR_SCHEMA"}; {@code ""} for status 0. */
    public String statusName() {
        return status == 0 ? "" : nameOf(status);
    }

    /** The library's message alone, without the status name appended by {@link #getMessage()}. */
    public String libraryMessage() {
        return libraryMessage;
    }

    static String nameOf(int status) {
        switch (status) {
            case ERR_JSON: return "CORELOGIC_ERR_JSON";
            case ERR_SCHEMA: return "CORELOGIC_ERR_SCHEMA";
            case ERR_NOT_FOUND: return "CORELOGIC_ERR_NOT_FOUND";
            case ERR_HANDLE: return "CORELOGIC_ERR_HANDLE";
            case ERR_ARG: return "CORELOGIC_ERR_ARG";
            case ERR_IO: return "CORELOGIC_ERR_IO";
            case ERR_CORRUPT: return "CORELOGIC_ERR_CORRUPT";
            case ERR_NOMEM: return "CORELOGIC_ERR_NOMEM";
            default: return "CORELOGIC_UNKNOWN_STATUS(" + status + ")";
        }
    }

    /** The exception for a negative status; a code this binding does not know yet gives the base class. */
    static CorelogicException of(int status, String message) {
        switch (status) {
            case ERR_JSON: return new JsonException(message);
            case ERR_SCHEMA: return new SchemaException(message);
            case ERR_NOT_FOUND: return new NotFoundException(message);
            case ERR_HANDLE: return new HandleException(message);
            case ERR_ARG: return new ArgumentException(message);
            case ERR_IO: return new StorageException(message);
            case ERR_CORRUPT: return new CorruptException(message);
            case ERR_NOMEM: return new OutOfMemoryException(message);
            default: return new CorelogicException(status, message);
        }
    }
}
