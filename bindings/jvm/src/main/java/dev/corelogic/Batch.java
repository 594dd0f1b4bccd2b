package dev.corelogic;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What one call returned: the state after the last step it ran (in patch mode, the
 * patch to it), the effect commands of every step, in order, and the number of steps. {@link System#deliver} and
 * {@link System#complete} for an effect that is not running return {@link #STALE}: the
 * input was dropped, never reached the reducer, and nothing changed.
 *
 * <p>The library's JSON ({@link #json()}) is parsed on first use only.
 */
public final class Batch {
    /** The result of an input for an effect that is not running (cancelled, completed, never started). */
    public static final Batch STALE = new Batch(null);

    private final String json;
    private volatile Map<String, Object> parsed;

    Batch(String json) {
        this.json = json;
    }

    /** True for {@link #STALE}: the input was dropped. */
    public boolean stale() {
        return json == null;
    }

    /** The batch as the library wrote it: {@code {"state":{...},"effects":[...],"steps":1}}; null if stale. */
    public String json() {
        return json;
    }

    /** The batch parsed, once (also what {@link StateMirror#apply(Batch)} reads). */
    Map<String, Object> parsed() {
        Map<String, Object> value = parsed;
        if (value == null) {
            value = json == null ? Collections.emptyMap() : Json.object(Json.parse(json));
            parsed = value;
        }
        return value;
    }

    /**
     * The state after the last step (a JSON object, see {@link Json}); null if stale, and in
     * patch mode unless the state was small enough to be sent whole (see {@link StateMirror}).
     */
    public Map<String, Object> state() {
        Object state = parsed().get("state");
        return state == null ? null : Json.object(state);
    }

    /**
     * True for a batch of patch mode ({@link System#setOutput}) that carries a patch; a
     * small state is sent whole instead (then {@link #revision()} is set and this is false).
     */
    public boolean isPatch() {
        return parsed().containsKey("patch");
    }

    /** Patch mode: the revision this batch's state has; -1 otherwise. */
    public long revision() {
        return parsed().get("revision") instanceof Number n ? n.longValue() : -1;
    }

    /** Patch mode: the revision the patch applies to; -1 otherwise. */
    public long base() {
        return parsed().get("base") instanceof Number n ? n.longValue() : -1;
    }

    /** Patch mode: the RFC 6902 operations from {@link #base()} to {@link #revision()}; empty otherwise. */
    public List<Map<String, Object>> patch() {
        List<Map<String, Object>> out = new ArrayList<>();
        if (parsed().get("patch") instanceof List<?> list) for (Object operation : list) out.add(Json.object(operation));
        return Collections.unmodifiableList(out);
    }

    /**
     * The watched queries whose value changed since the previous batch
     * ({@link System#watchQueries}); null when no query is watched.
     */
    public Map<String, Object> queries() {
        Object queries = parsed().get("queries");
        return queries == null ? null : Json.object(queries);
    }

    /** The commands of every step the call ran, in order; empty if stale. */
    public List<Command> effects() {
        Object effects = parsed().get("effects");
        if (!(effects instanceof List<?> list)) return Collections.emptyList();
        List<Command> out = new ArrayList<>(list.size());
        for (Object command : list) out.add(Command.of(command));
        return Collections.unmodifiableList(out);
    }

    /** The {@code start} commands among {@link #effects()}. */
    public List<Command.Start> started() {
        List<Command.Start> out = new ArrayList<>();
        for (Command command : effects()) if (command instanceof Command.Start start) out.add(start);
        return out;
    }

    /** How many steps the call ran: 1 for an input, 0 for the creation batch or a call queued from a handler. */
    public int steps() {
        Object steps = parsed().get("steps");
        return steps instanceof Number number ? number.intValue() : 0;
    }

    @Override
    public String toString() {
        return stale() ? "Batch.STALE" : "Batch" + json;
    }
}
