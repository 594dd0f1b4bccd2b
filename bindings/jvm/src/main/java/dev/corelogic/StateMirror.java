package dev.corelogic;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The host's copy of a system's state in patch mode.
 *
 * <pre>{@code
 * StateMirror mirror = new StateMirror(system.setOutput(Output.PATCH));
 * Batch batch = system.send(event);
 * if (!mirror.apply(batch.json())) mirror.reset(system.resync());   // a patch was missed
 * render(mirror.state());
 * }</pre>
 *
 * <p>Applying never changes a state it returned before: the containers along each
 * changed path are copied, once per patch however many of its operations pass through
 * them (a page of appended items copies the list once, not once per item), and
 * everything else is shared, so each revision is a value of its own. Not thread-safe: one mirror per consumer, or synchronize.
 */
public final class StateMirror {
    private long revision;
    private Object state;

    /** A mirror starting from what {@link System#setOutput} or {@link System#resync} returned. */
    public StateMirror(Baseline baseline) {
        reset(baseline);
    }

    /** Starts again from {@code baseline}. */
    public void reset(Baseline baseline) {
        if (baseline == null) throw new ArgumentException("a StateMirror needs a baseline, not null");
        this.revision = baseline.revision();
        this.state = baseline.state();
    }

    /** The revision of {@link #state()}. */
    public long revision() {
        return revision;
    }

    /** The state at {@link #revision()}. */
    public Map<String, Object> state() {
        return Json.object(state);
    }

    /** {@link #apply(Map)} for a batch (parsed once, shared with the batch's own readers). */
    public boolean apply(Batch batch) {
        return apply(batch.parsed());
    }

    /** {@link #apply(Map)} for a batch's or a state message's JSON text. */
    public boolean apply(String json) {
        return apply(Json.object(Json.parse(json)));
    }

    /**
     * Applies a patch-mode batch or state-handler message: a patch
     * ({@code {"revision","base","patch"}}), or a small state sent whole
     * ({@code {"revision","state"}}), which becomes the mirror's. Returns false, and changes
     * nothing, if a patch's base is not this mirror's revision (a patch was missed:
     * {@link #reset} from {@link System#resync()}) or a whole state is older than the mirror.
     *
     * @throws IllegalArgumentException not a patch-mode message
     * @throws PatchException a patch that does not apply (the mirror stays as it was)
     */
    public boolean apply(Map<String, Object> message) {
        if (!(message.get("revision") instanceof Number next)) {
            throw new IllegalArgumentException("not a patch-mode message (is the system in patch mode?)");
        }
        Object patch = message.get("patch");
        if (patch == null) {
            if (!message.containsKey("state")) {
                throw new IllegalArgumentException("not a patch-mode message: neither \"patch\" nor \"state\"");
            }
            if (next.longValue() < revision) return false;
            state = message.get("state");
            revision = next.longValue();
            return true;
        }
        if (!(patch instanceof List<?> operations)) throw new IllegalArgumentException("not a patch message: \"patch\" is not an array");
        if (!(message.get("base") instanceof Number base) || base.longValue() != revision) return false;
        state = applyPatch(state, operations);
        revision = next.longValue();
        return true;
    }

    /**
     * Applies an RFC 6902 patch (the library's subset: add, remove, replace) to a value;
     * returns the new value. The value given is never changed, so a patch that fails
     * leaves it as it was. A small applier of its own: the JDK has none, and the binding
     * takes no dependencies (Maven Central is not a build input); it follows
     * Tests/hosts/patch_cases.json as every host's does.
     *
     * @throws PatchException a malformed operation, or one that does not apply
     */
    @SuppressWarnings("unchecked")
    public static Object applyPatch(Object value, List<?> patch) {
        Object root = value;
        // The containers this patch made, changed in place by its later operations: made
        // when an operation first takes the general path (a patch of one operation copies
        // each container once anyway).
        Set<Object> fresh = null;
        // The copy of the state this patch's operations on its own members change. Those,
        // the most frequent (a field replaced, an optional one added or removed), are
        // applied here: no pointer split, no call per operation.
        Map<String, Object> copied = null;
        for (Object raw : patch) {
            Map<String, Object> operation = Json.object(raw);
            String key = memberKey(operation.get("path"));
            if (key != null && root instanceof Map<?, ?> map) {
                Object op = operation.get("op");
                boolean present = map.containsKey(key);
                boolean sets = ("replace".equals(op) && present) || "add".equals(op);
                if ((sets && operation.containsKey("value")) || ("remove".equals(op) && present)) {
                    if (root != copied) root = copied = (Map<String, Object>) copy(root, fresh);
                    if (sets) copied.put(key, operation.get("value"));
                    else copied.remove(key);
                    continue;
                }
            }
            if (fresh == null && patch.size() > 1) {
                fresh = Collections.newSetFromMap(new IdentityHashMap<>());
                if (copied != null) fresh.add(copied);
            }
            root = applyOperation(root, operation, fresh);
        }
        return root;
    }

    /** The member a pointer of one token names ("/count" to "count"), when it has nothing to unescape; else null. */
    private static String memberKey(Object pointer) {
        if (!(pointer instanceof String path) || path.isEmpty() || path.charAt(0) != '/') return null;
        if (path.indexOf('/', 1) >= 0 || path.indexOf('~') >= 0) return null;
        return path.substring(1);
    }

    private static PatchException failure(String message) {
        return new PatchException(message);
    }

    private static List<String> tokens(Object pointer) {
        if (!(pointer instanceof String path)) throw failure("a path must be a string");
        List<String> out = new ArrayList<>();
        if (path.isEmpty()) return out;
        if (path.charAt(0) != '/') throw failure("invalid JSON Pointer " + Json.write(path));
        if (path.indexOf('~') < 0) { // nothing to unescape: the tokens between the slashes
            int start = 1;
            for (int slash; (slash = path.indexOf('/', start)) >= 0; start = slash + 1) out.add(path.substring(start, slash));
            out.add(path.substring(start));
            return out;
        }
        for (String token : path.substring(1).split("/", -1)) {
            if (token.replaceAll("~[01]", "").indexOf('~') >= 0) {
                throw failure("invalid JSON Pointer " + Json.write(path) + ": '~' must be followed by '0' or '1'");
            }
            out.add(token.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }

    private static int index(List<?> list, String token, boolean allowEnd) {
        if (token.equals("-") && allowEnd) return list.size();
        if (!isIndex(token)) throw failure("invalid array index " + Json.write(token));
        long at = Long.parseLong(token);
        if (at > list.size() || (!allowEnd && at == list.size())) throw failure("array index " + at + " out of range");
        return (int) at;
    }

    /** "0", or up to 10 digits without a leading zero. */
    private static boolean isIndex(String token) {
        int length = token.length();
        if (length == 0 || length > 10 || (length > 1 && token.charAt(0) == '0')) return false;
        for (int i = 0; i < length; i++) {
            char c = token.charAt(i);
            if (c < '0' || c > '9') return false;
        }
        return true;
    }

    /**
     * A copy of {@code container} for this patch, or the container itself when this patch
     * made it ({@code fresh}: the containers it made; null for a patch of one operation).
     */
    @SuppressWarnings("unchecked")
    private static Object copy(Object container, Set<Object> fresh) {
        if (fresh != null && fresh.contains(container)) return container;
        Object made;
        if (container instanceof Map<?, ?> map) made = new LinkedHashMap<>((Map<String, Object>) map);
        else if (container instanceof List<?> list) made = new ArrayList<>((List<Object>) list);
        else throw failure("no container on the path");
        if (fresh != null) fresh.add(made);
        return made;
    }

    @SuppressWarnings("unchecked")
    private static Object applyOperation(Object root, Map<String, Object> operation, Set<Object> fresh) {
        Object op = operation.get("op");
        if (!"add".equals(op) && !"remove".equals(op) && !"replace".equals(op)) {
            throw failure("unsupported op " + Json.write(op));
        }
        List<String> parts = tokens(operation.get("path"));
        if (!"remove".equals(op) && !operation.containsKey("value")) throw failure(op + ": \"value\" is missing");
        Object value = operation.get("value");
        if (parts.isEmpty()) {
            if ("remove".equals(op)) throw failure("cannot remove the whole state");
            return value;
        }
        Object top = copy(root, fresh);
        Object parent = top;
        for (int i = 0; i < parts.size() - 1; i++) {
            String token = parts.get(i);
            if (parent instanceof List<?> list) {
                int at = index(list, token, false);
                Object child = copy(list.get(at), fresh);
                ((List<Object>) list).set(at, child);
                parent = child;
            } else {
                Map<String, Object> map = (Map<String, Object>) parent;
                if (!map.containsKey(token)) throw failure("no member " + Json.write(token));
                Object child = copy(map.get(token), fresh);
                map.put(token, child);
                parent = child;
            }
        }
        String last = parts.get(parts.size() - 1);
        if (parent instanceof List<?> raw) {
            List<Object> list = (List<Object>) raw;
            int at = index(list, last, "add".equals(op));
            if ("add".equals(op)) list.add(at, value);
            else if ("remove".equals(op)) list.remove(at);
            else list.set(at, value);
        } else {
            Map<String, Object> map = (Map<String, Object>) parent;
            if (!"add".equals(op) && !map.containsKey(last)) throw failure("no member " + Json.write(last));
            if ("remove".equals(op)) map.remove(last);
            else map.put(last, value);
        }
        return top;
    }
}
