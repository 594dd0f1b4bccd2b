package dev.corelogic;

/**
 * The native libraries could not be loaded, or {@code libcorelogic}'s ABI version differs
 * from the one this binding was written for. Status 0: it never comes from a call.
 */
public class LibraryException extends CorelogicException {
    private static final long serialVersionUID = 1L;

    LibraryException(String message, Throwable cause) {
        super(0, message, cause);
    }
}
