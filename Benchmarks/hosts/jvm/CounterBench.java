package dev.corelogic;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * make bench, hosts section: the JVM binding's counter against its floor, after a JIT
 * warm-up. In the binding's package, to call its JNI methods bare. Three loops,
 * interleaved round by round, each printed as the median of its rounds:
 * <ul>
 * <li>{@code jvm floor}: one JNI call ({@code Native.send}, the batch copied into a Java
 *     byte array and freed), the bytes decoded and parsed by the binding's parser
 *     ({@link Json#parse}): the least this binding's host does;</li>
 * <li>{@code jvm full}: {@code System.send("increment")}, the batch's state read;</li>
 * <li>{@code jvm patch}: the same in patch mode, a {@link StateMirror} kept up to date from
 *     each batch;</li>
 * <li>{@code jvm searchfull}, {@code jvm searchpatch}: the search state with an empty list
 *     (about 100 bytes, so patch mode sends patches), {@code loadFailed} and {@code retry}
 *     in turn, in full mode (the state read) and in patch mode (the mirror kept).</li>
 * </ul>
 */
public final class CounterBench {
    private static final int ROUNDS = 7;
    private static final int CALLS = 100_000;

    interface Loop {
        long run(int calls);
    }

    private static double timed(Loop loop, int calls) {
        long start = java.lang.System.nanoTime();
        long sink = loop.run(calls);
        long elapsed = java.lang.System.nanoTime() - start;
        if (sink == 0) throw new IllegalStateException("no increment counted");
        return (double) elapsed / calls;
    }

    private static long count(Object state) {
        return (Long) Json.object(state).get("count");
    }

    private static final String SEARCH = "{\"query\":\"swift\",\"items\":[],\"nextURL\":\"/search/repositories?q=swift\","
            + "\"shouldLoadNextPage\":false}";

    public static void main(String[] args) {
        try (System full = new System("counter"); System patched = new System("counter");
                System searchFull = new System("search", Json.raw(SEARCH)); System searchPatched = new System("search", Json.raw(SEARCH))) {
            StateMirror mirror = new StateMirror(patched.setOutput(Output.PATCH));
            StateMirror searchMirror = new StateMirror(searchPatched.setOutput(Output.PATCH));
            Map<String, Object> failed = Map.of("loadFailed", Map.of("error", "offline"));
            byte[][] out = new byte[1][];
            long bare = Native.systemNew("counter".getBytes(StandardCharsets.UTF_8), null, out);
            byte[] increment = "\"increment\"".getBytes(StandardCharsets.UTF_8);
            Map<String, Loop> loops = new java.util.LinkedHashMap<>();
            loops.put("floor", calls -> {
                long sink = 0;
                for (int i = 0; i < calls; i++) {
                    Native.send(bare, increment, out);
                    sink += count(Json.object(Json.parse(Native.text(out[0]))).get("state"));
                }
                return sink;
            });
            loops.put("full", calls -> {
                long sink = 0;
                for (int i = 0; i < calls; i++) sink += count(full.send("increment").state());
                return sink;
            });
            loops.put("patch", calls -> {
                long sink = 0;
                for (int i = 0; i < calls; i++) {
                    if (!mirror.apply(patched.send("increment"))) throw new IllegalStateException("a patch was missed");
                    sink += count(mirror.state());
                }
                return sink;
            });
            loops.put("searchfull", calls -> {
                long sink = 0;
                for (int i = 0; i < calls; i++) sink += searchFull.send(i % 2 == 0 ? failed : "retry").state().containsKey("lastError") ? 1 : 0;
                return sink;
            });
            loops.put("searchpatch", calls -> {
                long sink = 0;
                for (int i = 0; i < calls; i++) {
                    if (!searchMirror.apply(searchPatched.send(i % 2 == 0 ? failed : "retry"))) throw new IllegalStateException("a patch was missed");
                    sink += searchMirror.state().containsKey("lastError") ? 1 : 0;
                }
                return sink;
            });
            for (int i = 0; i < 5; i++) for (Loop loop : loops.values()) timed(loop, CALLS / 5);
            Map<String, double[]> rounds = new java.util.LinkedHashMap<>();
            for (String name : loops.keySet()) rounds.put(name, new double[ROUNDS]);
            for (int r = 0; r < ROUNDS; r++) {
                for (Map.Entry<String, Loop> loop : loops.entrySet()) rounds.get(loop.getKey())[r] = timed(loop.getValue(), CALLS);
            }
            long expected = CALLS + (long) ROUNDS * CALLS;
            long bareCount = count(Json.parse(Native.text(Native.state(bare))));
            Native.systemFree(bare);
            for (long counted : new long[] {count(full.state()), count(patched.state()), bareCount}) {
                if (counted != expected) throw new IllegalStateException("counted " + counted + ", expected " + expected);
            }
            if (!searchMirror.state().equals(searchPatched.state())) throw new IllegalStateException("the search mirror is not the state");
            for (Map.Entry<String, double[]> entry : rounds.entrySet()) {
                double[] values = entry.getValue();
                Arrays.sort(values);
                java.lang.System.out.printf("jvm %s: %.1f ns/call%n", entry.getKey(), values[ROUNDS / 2]);
            }
        }
    }
}
