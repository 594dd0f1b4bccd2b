package dev.corelogic;

/** The system is closed, or its handle was never valid ({@code CORELOGIC_ERR_HANDLE}). */
public class HandleException extends CorelogicException {
    private static final long serialVersionUID = 1L;

    HandleException(String message) {
        super(ERR_HANDLE, message);
    }
}
