package dev.corelogic;

/** Valid JSON that is not this feature's event or state ({@code CORELOGIC_ERR_SCHEMA}); the message names the JSON path and, for an unknown case, the valid cases. */
public class SchemaException extends CorelogicException {
    private static final long serialVersionUID = 1L;

    SchemaException(String message) {
        super(ERR_SCHEMA, message);
    }
}
