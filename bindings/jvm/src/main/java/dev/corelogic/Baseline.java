package dev.corelogic;

import java.util.Map;

/**
 * A state and its revision, as {@link System#setOutput} and {@link System#resync} return
 * them: in patch mode, what the next patch applies to.
 */
public record Baseline(long revision, Map<String, Object> state) {
    static Baseline of(String json) {
        Map<String, Object> value = Json.object(Json.parse(json));
        return new Baseline(((Number) value.get("revision")).longValue(), Json.object(value.get("state")));
    }
}
