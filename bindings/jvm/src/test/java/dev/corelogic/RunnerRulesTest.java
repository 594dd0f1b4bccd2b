package dev.corelogic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The effect runners' rules (docs/hosts.md, "Effect runners"), the same scenarios as the
 * Python (test_runner_rules.py) and Node.js (runner_rules.test.js) suites.
 */
class RunnerRulesTest {
    static final Map<String, Object> SWIFT = Map.of("queryChanged", Map.of("text", "swift"));

    static Map<String, Object> page(String name) {
        return Map.of("pageLoaded", Map.of("items", List.of(Map.of("id", 1, "name", name, "stars", 10))));
    }

    static void until(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = java.lang.System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (java.lang.System.nanoTime() > deadline) throw new AssertionError("timed out");
            Thread.sleep(5);
        }
    }

    static List<Long> ids(System system) {
        return system.effects().stream().map(Command.Start::id).toList();
    }

    @Test
    void rule1AStartWhoseEffectIsRunningIsIgnored() throws Exception {
        try (System search = new System("search"); EffectRunner runner = new EffectRunner(search)) {
            AtomicInteger calls = new AtomicInteger();
            CountDownLatch release = new CountDownLatch(1);
            runner.effect("loadPage", effect -> { calls.incrementAndGet(); release.await(5, TimeUnit.SECONDS); return null; });
            runner.start();
            runner.send(SWIFT);
            until(() -> calls.get() == 1);
            runner.onCommand(search.effects().get(0));
            release.countDown();
            until(() -> search.effects().isEmpty());
            assertEquals(1, calls.get());
        }
    }

    @Test
    void rule2ACancelOfAFinishedEffectDoesNothing() throws Exception {
        try (System search = new System("search"); EffectRunner runner = new EffectRunner(search)) {
            runner.effect("loadPage", effect -> null);
            runner.start();
            runner.send(SWIFT);
            until(() -> search.effects().isEmpty() && runner.running().isEmpty());
            runner.onCommand(new Command.Cancel(1));
            assertTrue(runner.running().isEmpty());
        }
    }

    @Test
    void rule3AnAnswerAfterCloseIsDroppedAndTheEffectStaysRunning() throws Exception {
        try (System search = new System("search")) {
            EffectRunner runner = new EffectRunner(search);
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch answered = new CountDownLatch(1);
            AtomicReference<Effect> seen = new AtomicReference<>();
            runner.effect("loadPage", effect -> {
                seen.set(effect);
                while (go.getCount() > 0) {
                    try { go.await(); } catch (InterruptedException e) { /* ignores its cancel on purpose */ }
                }
                answered.countDown();
                return page("apple/swift");
            });
            runner.start();
            runner.send(SWIFT);
            until(() -> seen.get() != null);
            Thread closer = new Thread(runner::close);
            closer.start();
            until(() -> seen.get().isCancelled());
            assertFalse(seen.get().deliver(page("early")));
            go.countDown();
            assertTrue(answered.await(5, TimeUnit.SECONDS));
            closer.join(10_000);
            Thread.sleep(50);
            assertEquals(List.of(), search.state().get("items"));
            assertEquals(List.of(1L), ids(search));
        }
    }

    @Test
    void rule4AnExceptionGoesToOnErrorThenTheEffectCompletes() throws Exception {
        try (System search = new System("search"); EffectRunner runner = new EffectRunner(search)) {
            runner.onError((effect, error) -> page("mapped"));
            runner.effect("loadPage", effect -> { throw new IllegalStateException("offline"); });
            runner.start();
            runner.send(SWIFT);
            Map<String, Object> state = runner.awaitState(s -> !((List<?>) s.get("items")).isEmpty(), Duration.ofSeconds(5));
            assertEquals("mapped", ((Map<?, ?>) ((List<?>) state.get("items")).get(0)).get("name"));
            until(() -> search.effects().isEmpty());
        }
    }

    @Test
    void rule5ShutdownCancelsTheHandlersAndLeavesTheirEffectsRunning() throws Exception {
        try (System search = new System("search")) {
            EffectRunner runner = new EffectRunner(search);
            AtomicReference<Effect> seen = new AtomicReference<>();
            CountDownLatch ended = new CountDownLatch(1);
            runner.effect("loadPage", effect -> {
                seen.set(effect);
                try { effect.awaitCancellation(Duration.ofSeconds(30)); } finally { ended.countDown(); }
                return null;
            });
            runner.start();
            runner.send(SWIFT);
            until(() -> seen.get() != null);
            runner.close();
            assertTrue(ended.await(5, TimeUnit.SECONDS));
            assertTrue(seen.get().isCancelled());
            assertTrue(runner.running().isEmpty());
            assertEquals(List.of(1L), ids(search));
        }
    }
}
