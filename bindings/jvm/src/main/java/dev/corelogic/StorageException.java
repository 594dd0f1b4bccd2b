package dev.corelogic;

/** A file-system error while reading or writing a journal or snapshot ({@code CORELOGIC_ERR_IO}). */
public class StorageException extends CorelogicException {
    private static final long serialVersionUID = 1L;

    StorageException(String message) {
        super(ERR_IO, message);
    }
}
