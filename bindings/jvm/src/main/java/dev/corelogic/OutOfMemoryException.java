package dev.corelogic;

/**
 * The library could not allocate the memory a call needed ({@code CORELOGIC_ERR_NOMEM}).
 * After {@code send}, {@code deliver} or {@code complete} the input was applied and only its
 * batch is missing: read the state and the running effects to catch up (the message says so).
 */
public class OutOfMemoryException extends CorelogicException {
    private static final long serialVersionUID = 1L;

    OutOfMemoryException(String message) {
        super(ERR_NOMEM, message);
    }
}
