package dev.corelogic;

/**
 * Any other invalid argument ({@code CORELOGIC_ERR_ARG}). The binding also throws it,
 * before calling the library, for values it cannot pass on: a null where a value is
 * required, a NUL character inside a string, an object that cannot be written as JSON.
 */
public class ArgumentException extends CorelogicException {
    private static final long serialVersionUID = 1L;

    ArgumentException(String message) {
        super(ERR_ARG, message);
    }
}
