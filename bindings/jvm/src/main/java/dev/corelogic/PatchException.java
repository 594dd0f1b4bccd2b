package dev.corelogic;

/**
 * A patch that is malformed or does not apply ({@link StateMirror}): the binding's one
 * patch error. The state it was applied to is left exactly as it was. An
 * {@link IllegalArgumentException}, as the patch is the argument that is wrong.
 */
public final class PatchException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    PatchException(String message) {
        super("cannot apply the patch: " + message);
    }
}
