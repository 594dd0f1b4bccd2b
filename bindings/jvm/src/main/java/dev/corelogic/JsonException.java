package dev.corelogic;

/** Input that is not valid JSON, not valid UTF-8, nested too deep or too large ({@code CORELOGIC_ERR_JSON}). */
public class JsonException extends CorelogicException {
    private static final long serialVersionUID = 1L;

    JsonException(String message) {
        super(ERR_JSON, message);
    }
}
