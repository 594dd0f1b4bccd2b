package dev.corelogic;

/** Snapshot or journal content that cannot be used ({@code CORELOGIC_ERR_CORRUPT}); the message names the file and line. */
public class CorruptException extends CorelogicException {
    private static final long serialVersionUID = 1L;

    CorruptException(String message) {
        super(ERR_CORRUPT, message);
    }
}
