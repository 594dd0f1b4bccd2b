package dev.corelogic;

/** What batches and the state handler carry (see {@link System#setOutput}). */
public enum Output {
    /** The whole state. The default. */
    FULL(0),
    /** An RFC 6902 patch from the previous revision ({@link Batch#patch()}, {@link StateMirror}). */
    PATCH(1);

    final int code;

    Output(int code) {
        this.code = code;
    }
}
