package dev.corelogic;

/** When a journal's records reach stable storage (see {@code docs/persistence.md}). */
public enum Durability {
    /** fsync every input before its call returns: survives an OS crash or power loss. The default. */
    EVERY_INPUT(0),
    /** fsync at most every 100 ms and on checkpoint, sync and close; a process crash still loses nothing acknowledged. */
    INTERVAL(1);

    final int code;

    Durability(int code) {
        this.code = code;
    }
}
