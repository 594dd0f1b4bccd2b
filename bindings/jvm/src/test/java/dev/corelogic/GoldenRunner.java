package dev.corelogic;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The golden files (docs/golden-files.md) replayed through the JVM binding. Verdicts and
 * FAIL lines follow the C runner (Tests/c/golden_runner.c): the hosts must agree on
 * every file.
 *
 * <p>Usage: {@code java ... dev.corelogic.GoldenRunner [golden-directory]} (default
 * Examples/Cookbook/golden). Ends with {@code golden-jvm: N passed, N failed}; exit status 1 on any
 * failure.
 */
public final class GoldenRunner {
    private GoldenRunner() {}

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : "Examples/Cookbook/golden");
        List<Path> files = collect(root);
        if (files.isEmpty()) {
            java.lang.System.err.println("golden-jvm: no golden files under " + root);
            java.lang.System.exit(1);
        }
        int passed = 0;
        int failed = 0;
        for (Path file : files) {
            List<String> failures = runFile(file);
            String name = root.getFileName() + "/" + root.relativize(file);
            if (failures.isEmpty()) {
                passed++;
            } else {
                failed++;
                for (String failure : failures) java.lang.System.out.println("FAIL " + name + ": " + failure);
            }
        }
        java.lang.System.out.println("golden-jvm: " + passed + " passed, " + failed + " failed");
        int comparisonsFailed = 0;
        if (Files.exists(root.resolve("comparisons.json"))) {
            List<String> lines = new ArrayList<>();
            int[] counts = checkComparisons(root.resolve("comparisons.json"), lines);
            for (String line : lines) java.lang.System.out.println(line);
            java.lang.System.out.println("comparisons-jvm: " + counts[0] + " passed, " + counts[1] + " failed");
            comparisonsFailed = counts[1];
        }
        java.lang.System.exit(failed == 0 && comparisonsFailed == 0 ? 0 : 1);
    }

    /**
     * The cases every host's comparator must agree on (Examples/Cookbook/golden/comparisons.json,
     * docs/golden-files.md); appends a FAIL line per case that disagrees and returns
     * {passed, failed}.
     */
    static int[] checkComparisons(Path file, List<String> out) {
        List<?> cases;
        try {
            cases = Json.parse(Files.readString(file), 128, true) instanceof Map<?, ?> m && m.get("cases") instanceof List<?> l
                    ? l : List.of();
        } catch (IOException | JsonException e) {
            out.add("FAIL comparisons.json: " + e.getMessage());
            return new int[] {0, 1};
        }
        if (cases.isEmpty()) {
            out.add("FAIL comparisons.json: no cases");
            return new int[] {0, 1};
        }
        int passed = 0;
        int failed = 0;
        for (int i = 0; i < cases.size(); i++) {
            Map<?, ?> item = cases.get(i) instanceof Map<?, ?> m ? m : Map.of();
            List<String> found = new ArrayList<>();
            boolean ok = item.containsKey("expected") && item.containsKey("actual") && item.get("equal") instanceof Boolean;
            if (ok) {
                differences(item.get("expected"), item.get("actual"), "$", found);
                ok = found.isEmpty() == (Boolean) item.get("equal");
            }
            if (ok && item.get("path") instanceof String where) ok = !found.isEmpty() && found.get(0).startsWith(where + ":");
            if (ok) {
                passed++;
            } else {
                failed++;
                out.add("FAIL comparisons.json: case " + i + " (" + item.get("rule") + "): "
                        + (found.isEmpty() ? "no difference found" : found.get(0)));
            }
        }
        return new int[] {passed, failed};
    }

    /** The .json files in the subdirectories of root (its top level holds schema.json), sorted. */
    static List<Path> collect(Path root) throws IOException {
        if (!Files.isDirectory(root)) return List.of();
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(path -> path.getParent() != null && !path.getParent().equals(root))
                    .filter(path -> path.getFileName().toString().endsWith(".json"))
                    .filter(path -> !path.getFileName().toString().startsWith("."))
                    .filter(Files::isRegularFile)
                    .sorted((a, b) -> a.toString().compareTo(b.toString()))
                    .toList();
        }
    }

    /** Runs one file; returns its failures (none when it passes). */
    static List<String> runFile(Path path) {
        List<String> out = new ArrayList<>();
        Object file;
        try {
            // Read as strictly as the C runner's reader: invalid UTF-8, duplicate keys,
            // unpaired surrogate escapes and nesting deeper than 128 fail the file.
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(path)))
                    .toString();
            file = Json.parse(text, 128, true);
        } catch (CharacterCodingException e) {
            out.add("invalid UTF-8");
            return out;
        } catch (IOException e) {
            out.add("cannot read the file: " + e.getMessage());
            return out;
        } catch (JsonException e) {
            out.add(e.libraryMessage());
            return out;
        }
        run(file, out);
        return out;
    }

    /** A step the file cannot express (the C runner's `why`): reported once, the file stops. */
    private static final class Abort extends Exception {
        private static final long serialVersionUID = 1L;

        Abort(String message) {
            super(message);
        }
    }

    static void run(Object parsed, List<String> out) {
        if (!(parsed instanceof Map<?, ?> file)) {
            out.add("the file is not a JSON object");
            return;
        }
        if (!(file.get("feature") instanceof String feature)) {
            out.add("missing \"feature\"");
            return;
        }
        if (!(file.get("steps") instanceof List<?> steps)) {
            out.add("missing \"steps\" array");
            return;
        }
        Object first = file.get("state");
        System system;
        try {
            system = new System(feature, first == null ? null : Json.raw(Json.write(first)));
        } catch (CorelogicException e) {
            if (e instanceof NotFoundException) out.add(e.statusName() + ": " + e.libraryMessage());
            else out.add("\"state\": " + e.statusName() + ": " + e.libraryMessage());
            return;
        }
        try (system) {
            if (file.containsKey("expectInitial")) {
                Map<String, Object> batch = Json.object(Json.parse(system.initialBatch().json()));
                Map<String, Object> actual = new LinkedHashMap<>();
                actual.put("state", batch.get("state"));
                actual.put("effects", batch.containsKey("effects") ? batch.get("effects") : List.of());
                List<String> found = new ArrayList<>();
                compare(file.get("expectInitial"), actual, found);
                for (String line : found) out.add("expectInitial: " + line);
            }
            for (int i = 0; i < steps.size(); i++) {
                String label = "step " + (i + 1);
                if (!(steps.get(i) instanceof Map<?, ?> step) || step.isEmpty()) {
                    out.add(label + ": not an object whose first key is the action");
                    break;
                }
                Map.Entry<?, ?> head = step.entrySet().iterator().next();
                String action = (String) head.getKey();
                Object expected = step.containsKey("expect") ? step.get("expect") : new LinkedHashMap<>();
                Map<String, Object> actual;
                try {
                    actual = perform(action, head.getValue(), system);
                } catch (Abort e) {
                    out.add(label + " (" + action + "): " + e.getMessage());
                    break;
                }
                List<String> found = new ArrayList<>();
                compare(expected, actual, found);
                for (String line : found) out.add(label + " (" + action + "): " + line);
                // A step the file says succeeds but that no longer decodes stops the file.
                Object was = expected instanceof Map<?, ?> e ? e.get("status") : null;
                String now = (String) actual.get("status");
                if (("ok".equals(was) || "stale".equals(was)) && now.startsWith("error:")) {
                    Object message = actual.get("message");
                    out.add(label + " (" + action + ") no longer decodes: "
                            + (message != null ? Json.write(message) : now));
                    break;
                }
            }
        }
    }

    static String goldenStatus(int status) {
        if (status == 0) return "ok";
        if (status == 1) return "stale";
        String name = CoreLogic.statusName(status);
        if (name.startsWith("CORELOGIC_ERR_")) name = name.substring("CORELOGIC_ERR_".length());
        return "error:" + name.toLowerCase(java.util.Locale.ROOT);
    }

    private static long effectId(Object value) throws Abort {
        if (value instanceof Long id && id >= 0) return id;
        if (value instanceof BigInteger big && big.signum() >= 0 && big.bitLength() <= 64) return big.longValue();
        throw new Abort("expected an effect id (a non-negative integer)");
    }

    /** Runs one step and describes what happened in the shape of an `expect` object. */
    static Map<String, Object> perform(String action, Object argument, System system) throws Abort {
        String before = system.stateJson();
        Batch batch = null;
        Object value = null;
        int status = 0;
        String message = "";
        try {
            switch (action) {
                case "send" -> batch = system.send(Json.raw(Json.write(argument)));
                case "sendRaw" -> {
                    if (!(argument instanceof String text)) throw new Abort("sendRaw takes a string");
                    batch = system.sendJson(text);
                }
                case "deliver" -> {
                    Map<?, ?> arguments = argument instanceof Map<?, ?> m ? m : Map.of();
                    long id = effectId(arguments.get("effect"));
                    if (arguments.get("raw") instanceof String raw) {
                        batch = system.deliverJson(id, raw);
                    } else {
                        if (!arguments.containsKey("event")) throw new Abort("deliver needs \"event\" or \"raw\"");
                        batch = system.deliver(id, Json.raw(Json.write(arguments.get("event"))));
                    }
                }
                case "complete" -> {
                    Object effect = argument instanceof Map<?, ?> m && m.containsKey("effect") ? m.get("effect") : argument;
                    batch = system.complete(effectId(effect));
                }
                case "query" -> {
                    if (!(argument instanceof String name)) throw new Abort("query takes a query name");
                    value = system.query(name);
                }
                default -> throw new Abort("unknown action '" + action
                        + "'; actions: send, sendRaw, deliver, complete, query");
            }
            if (batch != null && batch.stale()) status = 1;
        } catch (CorelogicException e) {
            status = e.status();
            message = e.libraryMessage();
        }
        Map<String, Object> actual = new LinkedHashMap<>();
        actual.put("status", goldenStatus(status));
        if (status == 0 && "query".equals(action)) {
            actual.put("value", value);
        } else if (status == 0) {
            Map<String, Object> parsed = Json.object(Json.parse(batch.json()));
            actual.put("state", parsed.get("state"));
            actual.put("effects", parsed.containsKey("effects") ? parsed.get("effects") : List.of());
            if (parsed.get("steps") instanceof Long steps && steps != 1) actual.put("steps", steps);
        } else {
            if (!system.stateJson().equals(before)) {
                actual.put("stateChanged", "the state changed on a " + goldenStatus(status) + " input");
            }
            if (!message.isEmpty()) actual.put("message", message);
        }
        return actual;
    }

    /** Checks an `expect` object against what happened: only the keys it gives. */
    static void compare(Object expected, Map<String, Object> actual, List<String> out) {
        if (!(expected instanceof Map<?, ?> keys)) {
            out.add("expect is not an object");
            return;
        }
        if (actual.get("stateChanged") instanceof String changed) out.add(Json.write(changed));
        for (Map.Entry<?, ?> entry : keys.entrySet()) {
            String key = (String) entry.getKey();
            Object value = entry.getValue();
            if (key.equals("error")) {
                if (!(value instanceof String needle)) {
                    out.add("error: expected a string");
                    continue;
                }
                String message = actual.get("message") instanceof String m ? m : "";
                if (!message.contains(needle)) {
                    out.add("error: expected a message containing " + Json.write(needle) + ", got " + Json.write(message));
                }
                continue;
            }
            if (!actual.containsKey(key)) {
                out.add(key + ": expected " + Json.write(value) + ", missing (status " + Json.write(actual.get("status")) + ")");
                continue;
            }
            differences(value, actual.get(key), key.equals("status") ? "status" : "$." + key, out);
        }
    }

    /** Semantic differences: objects by key, arrays by index, numbers by value. */
    static void differences(Object expected, Object actual, String path, List<String> out) {
        if (expected instanceof Map<?, ?> e && actual instanceof Map<?, ?> a) {
            for (Map.Entry<?, ?> entry : e.entrySet()) {
                String itemPath = path + "." + entry.getKey();
                if (a.containsKey(entry.getKey())) {
                    differences(entry.getValue(), a.get(entry.getKey()), itemPath, out);
                } else {
                    out.add(itemPath + ": expected " + Json.write(entry.getValue()) + ", missing");
                }
            }
            for (Map.Entry<?, ?> entry : a.entrySet()) {
                if (!e.containsKey(entry.getKey())) {
                    out.add(path + "." + entry.getKey() + ": not expected, got " + Json.write(entry.getValue()));
                }
            }
            return;
        }
        if (expected instanceof List<?> e && actual instanceof List<?> a) {
            for (int i = 0; i < Math.max(e.size(), a.size()); i++) {
                String itemPath = path + "[" + i + "]";
                if (i >= a.size()) out.add(itemPath + ": expected " + Json.write(e.get(i)) + ", missing");
                else if (i >= e.size()) out.add(itemPath + ": not expected, got " + Json.write(a.get(i)));
                else differences(e.get(i), a.get(i), itemPath, out);
            }
            return;
        }
        if (sameNumber(expected, actual)) return;
        if (strictlyEqual(expected, actual)) return;
        out.add(path + ": expected " + Json.write(expected) + ", got " + Json.write(actual));
    }

    /** Numbers by value: integers exactly, whatever their width; otherwise as doubles. */
    static boolean sameNumber(Object a, Object b) {
        if (!(a instanceof Number x) || !(b instanceof Number y)) return false;
        boolean integers = (x instanceof Long || x instanceof BigInteger) && (y instanceof Long || y instanceof BigInteger);
        if (integers) return new BigInteger(x.toString()).equals(new BigInteger(y.toString()));
        return x.doubleValue() == y.doubleValue();
    }

    private static boolean strictlyEqual(Object a, Object b) {
        if (a == null || b == null) return a == b;
        if (a instanceof Number || b instanceof Number) {
            return a.getClass() == b.getClass() && a.equals(b);
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) return false;
            var i = x.entrySet().iterator();
            var j = y.entrySet().iterator();
            while (i.hasNext()) {
                var p = i.next();
                var q = j.next();
                if (!p.getKey().equals(q.getKey()) || !strictlyEqual(p.getValue(), q.getValue())) return false;
            }
            return true;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) return false;
            for (int k = 0; k < x.size(); k++) if (!strictlyEqual(x.get(k), y.get(k))) return false;
            return true;
        }
        return a.equals(b);
    }
}
