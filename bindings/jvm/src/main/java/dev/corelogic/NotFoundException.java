package dev.corelogic;

/** Unknown feature or query name ({@code CORELOGIC_ERR_NOT_FOUND}); the message lists the known names. */
public class NotFoundException extends CorelogicException {
    private static final long serialVersionUID = 1L;

    NotFoundException(String message) {
        super(ERR_NOT_FOUND, message);
    }
}
