import dev.corelogic.Batch;
import dev.corelogic.System;
import java.util.Arrays;
import java.util.Map;

/**
 * make bench, hosts section: the JVM binding's counter round trip,
 * {@code system.send("increment")} with the batch's state read (parsed), after a JIT
 * warm-up. Prints the median of the rounds as "jvm: <ns> ns/call".
 */
public final class Counter {
    private static final int ROUNDS = 7;
    private static final int CALLS = 100_000;

    private static double roundNs(System counter, int calls) {
        long start = java.lang.System.nanoTime();
        long sink = 0;
        for (int i = 0; i < calls; i++) {
            Batch batch = counter.send("increment");
            Map<String, Object> state = batch.state();
            sink += (Long) state.get("count");
        }
        long elapsed = java.lang.System.nanoTime() - start;
        if (sink == 0) throw new IllegalStateException("no increment counted");
        return (double) elapsed / calls;
    }

    public static void main(String[] args) {
        try (System counter = new System("counter")) {
            for (int i = 0; i < 5; i++) roundNs(counter, CALLS / 5); // JIT warm-up
            double[] rounds = new double[ROUNDS];
            for (int r = 0; r < ROUNDS; r++) rounds[r] = roundNs(counter, CALLS);
            Arrays.sort(rounds);
            java.lang.System.out.printf("jvm: %.1f ns/call%n", rounds[ROUNDS / 2]);
        }
    }
}
