package dev.corelogic;

import java.util.Map;

/**
 * One effect command: {@link Start} an effect, or {@link Cancel} a running one. A system
 * produces them in batches ({@link Batch#effects()}) or pushes them to a handler
 * ({@link System#onCommand}); within a step, all cancels come before all starts.
 * In Kotlin: {@code when (command) { is Command.Start -> ...; is Command.Cancel -> ... }}.
 *
 * <p>Effect ids are unsigned 64-bit integers held in a {@code long}
 * ({@link Long#toUnsignedString(long)} prints one above {@link Long#MAX_VALUE}).
 */
public sealed interface Command permits Command.Start, Command.Cancel {
    /** The effect this command is about. */
    long id();

    /**
     * Start the effect {@code id}: run what the feedback {@code feedback} asks for, described
     * by {@code request} (parsed JSON, see {@link Json}). The same record describes a running
     * effect in {@link System#effects()}.
     */
    record Start(long id, String feedback, Object request) implements Command {}

    /** Stop the effect {@code id}; anything it still delivers is dropped as stale. */
    record Cancel(long id) implements Command {}

    /** The command of the library's JSON {@code {"cancel":3}} or {@code {"start":{...}}}. */
    static Command of(Object json) {
        Map<String, Object> command = Json.object(json);
        if (command.containsKey("cancel")) return new Cancel(id(command.get("cancel")));
        Map<String, Object> start = Json.object(command.get("start"));
        return new Start(id(start.get("id")), (String) start.get("feedback"), start.get("request"));
    }

    /** An effect id from parsed JSON: a Long, or a BigInteger above Long.MAX_VALUE. */
    static long id(Object value) {
        return value instanceof java.math.BigInteger big ? big.longValue() : ((Number) value).longValue();
    }
}
