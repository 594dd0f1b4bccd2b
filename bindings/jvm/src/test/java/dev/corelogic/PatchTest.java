package dev.corelogic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Patch output: setOutput, resync, watchQueries, and StateMirror following the patches. */
class PatchTest {
    static final Map<String, Object> SWIFT = Map.of("queryChanged", Map.of("text", "swift"));

    static Map<String, Object> page(String... names) {
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < names.length; i++) items.add(Map.of("id", i + 1, "name", names[i], "stars", 10));
        return Map.of("pageLoaded", Map.of("items", items, "nextURL", "/next"));
    }

    @Test
    void applyingAPatchFollowsRfc6902AndNeverChangesTheValueGiven() {
        Object before = Json.parse("{\"items\":[{\"n\":1}],\"a/b\":{\"~\":1},\"keep\":{\"deep\":true}}");
        Object patch = Json.parse("[{\"op\":\"add\",\"path\":\"/items/-\",\"value\":{\"n\":2}},"
                + "{\"op\":\"add\",\"path\":\"/items/0\",\"value\":{\"n\":0}},"
                + "{\"op\":\"replace\",\"path\":\"/a~1b/~0\",\"value\":2},"
                + "{\"op\":\"remove\",\"path\":\"/items/1\"},"
                + "{\"op\":\"add\",\"path\":\"/fresh\",\"value\":null}]");
        Object after = StateMirror.applyPatch(before, (List<?>) patch);
        assertEquals(Json.parse("{\"items\":[{\"n\":0},{\"n\":2}],\"a/b\":{\"~\":2},\"keep\":{\"deep\":true},\"fresh\":null}"), after);
        assertEquals(Json.parse("{\"items\":[{\"n\":1}],\"a/b\":{\"~\":1},\"keep\":{\"deep\":true}}"), before);
        assertSame(((Map<?, ?>) before).get("keep"), ((Map<?, ?>) after).get("keep"), "an untouched subtree is shared");
        assertEquals(Map.of("x", 1L), StateMirror.applyPatch(before,
                (List<?>) Json.parse("[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"x\":1}}]")));
        assertThrows(IllegalArgumentException.class, () -> StateMirror.applyPatch(before,
                (List<?>) Json.parse("[{\"op\":\"remove\",\"path\":\"/missing\"}]")));
        assertThrows(IllegalArgumentException.class, () -> StateMirror.applyPatch(before,
                (List<?>) Json.parse("[{\"op\":\"move\",\"path\":\"/a\",\"from\":\"/b\"}]")));
    }

    /** A search state of more than 64 bytes of JSON, which patch mode sends as patches. */
    static final String LARGER = "{\"query\":\"swift\",\"items\":[],\"nextURL\":\"/search/repositories?q=swift\","
            + "\"shouldLoadNextPage\":false}";

    @Test
    void aMirrorFedEveryPatchBatchEqualsTheFullStateAtEveryStep() {
        try (System search = new System("search")) {
            StateMirror mirror = new StateMirror(search.setOutput(Output.PATCH));
            assertEquals(Output.PATCH, search.output());
            // The empty state is at most 64 bytes of JSON: the step that outgrows that sends
            // its state whole, and patches follow from it.
            Batch grown = search.send(SWIFT);
            assertFalse(grown.isPatch());
            assertEquals(1, grown.revision());
            assertTrue(mirror.apply(grown));
            assertEquals(search.state(), mirror.state());
            for (Object event : List.of(Map.of("queryChanged", Map.of("text", "swiftui")), SWIFT)) {
                Batch batch = search.send(event);
                assertTrue(batch.isPatch());
                assertNull(batch.state());
                assertEquals(mirror.revision(), batch.base());
                assertTrue(mirror.apply(batch));
                assertEquals(search.state(), mirror.state());
            }
            long load = search.effects().get(0).id();
            assertTrue(mirror.apply(search.deliver(load, page("a/b", "c/d"))));
            assertEquals(search.state(), mirror.state());
            assertEquals(2, ((List<?>) mirror.state().get("items")).size());
        }
    }

    @Test
    void aMissedPatchIsNoticedAndResyncCatchesUp() {
        try (System search = new System("search", Json.raw(LARGER))) {
            StateMirror mirror = new StateMirror(search.setOutput(Output.PATCH));
            search.send("reachedBottom"); // a batch this host drops
            assertFalse(mirror.apply(search.send(Map.of("loadFailed", Map.of("error", "offline")))));
            assertEquals(false, mirror.state().get("shouldLoadNextPage"), "a patch with the wrong base changes nothing");
            assertNull(mirror.state().get("lastError"));
            Baseline baseline = search.resync();
            assertEquals(Map.of("offline", Map.of()), baseline.state().get("lastError"));
            mirror.reset(baseline);
            assertTrue(mirror.apply(search.send("retry")));
            assertEquals(search.state(), mirror.state());
            assertEquals(search.state(), search.setOutput(Output.FULL).state());
            assertEquals("swift", search.send("reachedBottom").state().get("query"));
            assertThrows(ArgumentException.class, () -> search.setOutput(null));
        }
    }

    @Test
    void aSmallStateIsSentWholeAndBecomesTheMirror() {
        try (System counter = new System("counter")) {
            StateMirror mirror = new StateMirror(counter.setOutput(Output.PATCH));
            counter.send("increment"); // a batch this host drops: the next one is whole
            Batch next = counter.send("increment");
            assertFalse(next.isPatch());
            assertEquals(2, next.revision());
            assertEquals(Map.of("count", 2L), next.state());
            assertTrue(mirror.apply(next));
            assertEquals(2, mirror.revision());
            assertEquals(Map.of("count", 2L), mirror.state());
            assertFalse(mirror.apply(Json.object(Json.parse("{\"revision\":1,\"state\":{\"count\":1}}"))),
                    "an older whole state changes nothing");
            assertEquals(Map.of("count", 2L), mirror.state());
            assertThrows(IllegalArgumentException.class, () -> mirror.apply(Json.object(Json.parse("{\"revision\":3}"))));
        }
    }

    @Test
    void theStateHandlerReceivesPatchesInPatchMode() {
        try (System search = new System("search", Json.raw(LARGER))) {
            StateMirror mirror = new StateMirror(search.setOutput(Output.PATCH));
            List<Map<String, Object>> messages = new ArrayList<>();
            search.onState(messages::add);
            search.send(Map.of("loadFailed", Map.of("error", "offline")));
            search.sendJson("\"retry\"");
            assertEquals(2, messages.size());
            for (Map<String, Object> message : messages) {
                assertTrue(message.get("patch") instanceof List<?> && !message.containsKey("state"));
                assertTrue(mirror.apply(message));
            }
            assertEquals(search.state(), mirror.state());
        }
    }

    @Test
    void watchedQueriesReportOnlyWhatChanged() {
        try (System counter = new System("counter")) {
            assertEquals(Map.of("isZero", true), counter.watchQueries("isZero"));
            assertEquals(Map.of("isZero", false), counter.send("increment").queries());
            assertEquals(Map.of(), counter.send("increment").queries());
            assertThrows(NotFoundException.class, () -> counter.watchQueries("nope"));
            assertThrows(ArgumentException.class, () -> counter.watchQueries((String) null));
            counter.watchQueries(List.of());
            assertNull(counter.send("increment").queries());
        }
    }

    @Test
    void aMirrorFollowsALongRandomRunOfListChangesExactly() {
        java.util.Random random = new java.util.Random(0x2f6b1c3dL); // the same run every time
        try (System list = new System("list")) {
            StateMirror mirror = new StateMirror(list.setOutput(Output.PATCH));
            List<Object> events = new ArrayList<>();
            events.add(Map.of("initialLoaded", Map.of("items", List.of(item("a", random), item("b", random)))));
            for (int i = 0; i < 400; i++) {
                String id = String.valueOf((char) ('a' + random.nextInt(12)));
                Map<String, Object> change = new java.util.LinkedHashMap<>();
                switch (random.nextInt(3)) {
                    case 0 -> {
                        change.put("item", item(id, random));
                        change.put("index", random.nextInt(3) == 0 ? null : random.nextInt(14));
                        events.add(Map.of("add", change));
                    }
                    case 1 -> events.add(Map.of("remove", Map.of("id", id)));
                    default -> events.add(Map.of("move", Map.of("id", id, "index", random.nextInt(14))));
                }
            }
            for (int step = 0; step < events.size(); step++) {
                Batch batch = list.send(events.get(step));
                assertTrue(mirror.apply(batch), "step " + step + ": base " + batch.base() + ", mirror at " + mirror.revision());
                assertEquals(list.state(), mirror.state(), "step " + step + ": " + Json.write(events.get(step)));
            }
            assertFalse(((List<?>) list.state().get("items")).isEmpty());
        }
    }

    private static Map<String, Object> item(String id, java.util.Random random) {
        return Map.of("id", id, "title", "item " + id + " " + random.nextInt(3));
    }

    @Test
    void aRunnerNeverTakesAPatchModeMessageForAState() throws Exception {
        // Another thread's steps go on while this one switches to patch mode and back: a
        // state-handler message of patch mode ({"revision","state"} for the small counter)
        // must reach the runner as patch mode's, never as a whole state of full mode.
        try (System counter = new System("counter"); EffectRunner runner = new EffectRunner(counter)) {
            runner.start();
            java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread sender = new Thread(() -> {
                while (running.get()) counter.send("increment");
            });
            sender.start();
            List<Map<String, Object>> seen = new ArrayList<>();
            try {
                for (int round = 0; round < 2000; round++) {
                    counter.setOutput(round % 2 == 0 ? Output.PATCH : Output.FULL);
                    runner.awaitState(state -> {
                        seen.add(state);
                        return true;
                    }, Duration.ofSeconds(10));
                }
            } finally {
                running.set(false);
                sender.join();
            }
            for (Map<String, Object> state : seen) assertEquals(java.util.Set.of("count"), state.keySet(), "a state the runner gave: " + state);
        }
    }

    @Test
    void aRunnerFollowsThePatchesFromWhicheverModeItStartedIn() throws Exception {
        try (System search = new System("search"); EffectRunner runner = new EffectRunner(search)) {
            runner.effect("loadPage", effect -> page("apple/swift"));
            runner.start();
            // Switched after the runner started: its first patch finds no copy to apply to,
            // and the runner catches up with resync.
            search.setOutput(Output.PATCH);
            search.send(SWIFT);
            Map<String, Object> state = runner.awaitState(
                    s -> !((List<?>) s.get("items")).isEmpty(), Duration.ofSeconds(10));
            assertEquals(search.state(), state);
            search.send(Map.of("queryChanged", Map.of("text", "")));
            Map<String, Object> cleared = runner.awaitState(
                    s -> ((List<?>) s.get("items")).isEmpty(), Duration.ofSeconds(10));
            assertEquals("", cleared.get("query"));
            assertEquals(search.state(), cleared);
        }
        try (System search = new System("search"); EffectRunner runner = new EffectRunner(search)) {
            search.setOutput(Output.PATCH);
            runner.effect("loadPage", effect -> page("apple/swift"));
            runner.start();
            search.send(SWIFT);
            Map<String, Object> state = runner.awaitState(
                    s -> !((List<?>) s.get("items")).isEmpty(), Duration.ofSeconds(10));
            assertEquals(search.state(), state);
        }
    }
}
