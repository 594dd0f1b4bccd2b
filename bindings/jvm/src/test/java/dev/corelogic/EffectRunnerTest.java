package dev.corelogic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** EffectRunner: start/cancel commands become executor tasks; stale results are dropped. */
class EffectRunnerTest {
    static Map<String, Object> page(String... names) {
        List<Object> items = new java.util.ArrayList<>();
        for (int i = 0; i < names.length; i++) items.add(Map.of("id", i + 1, "name", names[i], "stars", 10));
        return Map.of("pageLoaded", Map.of("items", items));
    }

    static Map<String, Object> query(String text) {
        return Map.of("queryChanged", Map.of("text", text));
    }

    static boolean loaded(Map<String, Object> state) {
        return !((List<?>) state.get("items")).isEmpty() && Boolean.FALSE.equals(state.get("shouldLoadNextPage"));
    }

    @Test
    void aHandlersResultIsDeliveredOnAPoolThreadAndTheEffectCompleted() throws Exception {
        List<String> threads = new CopyOnWriteArrayList<>();
        try (System search = new System("search"); EffectRunner runner = new EffectRunner(search)) {
            runner.effect("loadPage", effect -> {
                threads.add(Thread.currentThread().getName());
                return page("apple/swift");
            });
            runner.start();
            runner.send(query("swift"));
            Map<String, Object> state = runner.awaitState(EffectRunnerTest::loaded, Duration.ofSeconds(10));
            assertEquals("apple/swift", Json.object(((List<?>) state.get("items")).get(0)).get("name"));
            assertTrue(threads.get(0).startsWith("corelogic-effect-"), threads.toString());
            long deadline = java.lang.System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!runner.running().isEmpty() && java.lang.System.nanoTime() < deadline) Thread.sleep(5);
            assertEquals(Map.of(), runner.running());
            assertEquals(List.of(), search.effects());
        }
    }

    @Test
    void aCancelInterruptsTheHandlerAndItsLateResultIsDropped() throws Exception {
        Map<String, Effect> effects = new ConcurrentHashMap<>();
        CountDownLatch interrupted = new CountDownLatch(1);
        try (System search = new System("search"); EffectRunner runner = new EffectRunner(search)) {
            runner.effect("loadPage", effect -> {
                String url = (String) Json.object(effect.request()).get("url");
                effects.put(url, effect);
                if (url.endsWith("=a")) {
                    try {
                        Thread.sleep(10_000);
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                    }
                    assertFalse(effect.deliver(page("late/a")), "a cancelled effect delivers nothing");
                    return page("late/a");
                }
                return page("fresh/b");
            });
            runner.start();
            runner.send(query("a"));
            long deadline = java.lang.System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!effects.containsKey("/search/repositories?q=a") && java.lang.System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            runner.send(query("b"));
            Map<String, Object> state = runner.awaitState(EffectRunnerTest::loaded, Duration.ofSeconds(10));
            assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the cancelled handler was not interrupted");
            assertTrue(effects.get("/search/repositories?q=a").isCancelled());
            assertEquals("fresh/b", Json.object(((List<?>) state.get("items")).get(0)).get("name"));
            Thread.sleep(50); // the late result, had it been delivered, would be in by now
            assertEquals("b", search.state().get("query"));
            assertEquals(1, ((List<?>) search.state().get("items")).size());
        }
    }

    @Test
    void effectsAlreadyRunningWhenTheRunnerStartsAreRun() throws Exception {
        Map<String, Object> loading = Map.of("query", "swift", "items", List.of(),
                "nextURL", "/search/repositories?q=swift", "shouldLoadNextPage", true);
        try (System search = new System("search", loading); EffectRunner runner = new EffectRunner(search)) {
            assertEquals(1, search.effects().size());
            runner.effect("loadPage", effect -> page("resumed/one"));
            Map<String, Object> state = runner.awaitState(EffectRunnerTest::loaded, Duration.ofSeconds(10));
            assertEquals("resumed/one", Json.object(((List<?>) state.get("items")).get(0)).get("name"));
        }
    }

    @Test
    void aHandlersExceptionIsMappedToAnEvent() throws Exception {
        try (System search = new System("search"); EffectRunner runner = new EffectRunner(search)) {
            runner.effect("loadPage", effect -> {
                throw new java.io.IOException("network is down");
            });
            runner.effect("retryTimer", effect -> effect.awaitCancellation(Duration.ofSeconds(30)) ? null : "retry");
            runner.onError((effect, error) -> Map.of("loadFailed", Map.of("error", "offline")));
            runner.start();
            runner.send(query("swift"));
            Map<String, Object> state = runner.awaitState(s -> s.get("lastError") != null, Duration.ofSeconds(10));
            assertEquals(Map.of("offline", Map.of()), state.get("lastError"));
        }
    }

    @Test
    void manyEffectsOnASharedExecutorAllFinish() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (System downloads = new System("downloads"); EffectRunner runner = new EffectRunner(downloads, pool)) {
            runner.effect("download", effect -> {
                Thread.sleep(2);
                return Map.of("finished", Map.of("url", Json.object(effect.request()).get("url")));
            });
            runner.start();
            for (int i = 0; i < 20; i++) runner.send(Map.of("enqueue", Map.of("url", "https://example.com/" + i)));
            Map<String, Object> state = runner.awaitState(
                    s -> countCompleted(downloads) == 20,
                    Duration.ofSeconds(20));
            assertEquals(20, countCompleted(downloads), Json.write(state));
        } finally {
            pool.shutdownNow();
        }
    }

    static int countCompleted(System downloads) {
        return ((List<?>) downloads.query("finished")).size();
    }

    @Test
    void misuseIsReportedClearly() throws Exception {
        try (System search = new System("search"); EffectRunner runner = new EffectRunner(search)) {
            ArgumentException unknown = assertThrows(ArgumentException.class, () -> runner.effect("nope", e -> null));
            assertTrue(unknown.libraryMessage().contains("loadPage"), unknown.libraryMessage());
            runner.start();
            try (EffectRunner second = new EffectRunner(search)) {
                assertThrows(IllegalStateException.class, second::start);
            }
            assertThrows(TimeoutException.class, () -> runner.awaitState(s -> false, Duration.ofMillis(50)));
        }
        assertThrows(ArgumentException.class, () -> new EffectRunner(null));
    }
}
