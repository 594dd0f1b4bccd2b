package dev.corelogic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java API over the C ABI: batches, errors, handlers, lifetimes, persistence. */
class SystemTest {
    static final Map<String, Object> SWIFT = Map.of("queryChanged", Map.of("text", "swift"));

    @Test
    void theLibraryMatchesTheBindingsAbiAndListsItsFeatures() {
        assertEquals(CoreLogic.ABI_VERSION, CoreLogic.abiVersion());
        assertTrue(CoreLogic.version().matches("\\d+\\.\\d+\\.\\d+"), CoreLogic.version());
        assertEquals(CoreLogic.version(), CoreLogic.BINDING_VERSION); // both from include/corelogic.h
        List<Object> names = new ArrayList<>();
        for (Map<String, Object> feature : CoreLogic.features()) names.add(feature.get("name"));
        assertTrue(names.containsAll(List.of("counter", "search", "downloads")), names.toString());
    }

    @Test
    void everyErrorStatusOfTheHeaderHasAClassOfItsOwn() throws Exception {
        String header = Files.readString(Path.of("include", "corelogic.h"));
        java.util.regex.Matcher status = java.util.regex.Pattern
            .compile("^#define CORELOGIC_(ERR_\\w+) \\((-\\d+)\\)$", java.util.regex.Pattern.MULTILINE).matcher(header);
        java.util.Set<Class<?>> classes = new java.util.HashSet<>();
        int count = 0;
        while (status.find()) {
            count++;
            int value = Integer.parseInt(status.group(2));
            assertEquals(value, CorelogicException.class.getField(status.group(1)).getInt(null), status.group(1));
            CorelogicException error = CorelogicException.of(value, "message");
            assertTrue(error.getClass() != CorelogicException.class, status.group(1) + " has no class of its own");
            assertEquals("CORELOGIC_" + status.group(1), error.statusName());
            assertEquals(value, error.status());
            classes.add(error.getClass());
        }
        assertTrue(count >= 8, count + " error statuses in the header");
        assertEquals(count, classes.size());
    }

    @Test
    void aSendReturnsTheStateEffectsAndSteps() {
        try (System search = new System("search")) {
            Batch batch = search.send(SWIFT);
            assertEquals("swift", batch.state().get("query"));
            assertEquals(1, batch.steps());
            Command.Start start = (Command.Start) batch.effects().get(0);
            assertEquals("loadPage", start.feedback());
            assertEquals(Map.of("url", "/search/repositories?q=swift"), start.request());
            assertEquals(List.of(start), search.effects());
            assertEquals(batch.state(), search.state());
        }
    }

    @Test
    void aCaseNameAndRawJsonAreBothEvents() {
        try (System counter = new System("counter")) {
            counter.send("increment");
            Batch batch = counter.sendJson("{\"increment\":{}}");
            assertEquals(2L, batch.state().get("count"));
            assertEquals("{\"count\":2}", counter.stateJson());
            assertEquals(Boolean.FALSE, counter.query("isZero"));
        }
    }

    @Test
    void aSystemStartsFromAGivenStateAndStartsWhatItAsksFor() {
        Map<String, Object> loading = Map.of("query", "swift", "items", List.of(),
                "nextURL", "/search/repositories?q=swift", "shouldLoadNextPage", true);
        try (System search = new System("search", loading)) {
            Batch initial = search.initialBatch();
            assertEquals(0, initial.steps());
            assertEquals(1, initial.started().size());
            assertEquals(1, search.effects().size());
        }
    }

    @Test
    void eachStatusBecomesItsExceptionWithTheLibrarysMessageAndTheStateIsUnchanged() {
        try (System search = new System("search")) {
            search.send(SWIFT);
            String before = search.stateJson();
            SchemaException schema = assertThrows(SchemaException.class,
                    () -> search.send(Map.of("queryChanged", Map.of("text", 5))));
            assertTrue(schema.libraryMessage().contains("$.queryChanged.text"), schema.libraryMessage());
            assertEquals(CorelogicException.ERR_SCHEMA, schema.status());
            assertEquals("CORELOGIC_ERR_SCHEMA", schema.statusName());
            JsonException json = assertThrows(JsonException.class, () -> search.sendJson("{\"retry\":"));
            assertTrue(json.libraryMessage().startsWith("corelogic_system_send"), json.libraryMessage());
            NotFoundException query = assertThrows(NotFoundException.class, () -> search.query("nope"));
            assertTrue(query.libraryMessage().contains("isLoadingNextPage"), query.libraryMessage());
            assertEquals(before, search.stateJson());
        }
        NotFoundException feature = assertThrows(NotFoundException.class, () -> new System("nope"));
        assertTrue(feature.libraryMessage().contains("counter"), feature.libraryMessage());
        assertThrows(SchemaException.class, () -> new System("counter", Map.of("count", "x")));
    }

    @Test
    void aLateResultIsStaleAndNeverReachesTheReducer() {
        try (System search = new System("search")) {
            long first = search.send(SWIFT).started().get(0).id();
            Batch second = search.send(Map.of("queryChanged", Map.of("text", "swiftui")));
            assertEquals(new Command.Cancel(first), second.effects().get(0));
            String before = search.stateJson();
            Batch late = search.deliver(first, Map.of("pageLoaded", Map.of("items", List.of())));
            assertSame(Batch.STALE, late);
            assertTrue(late.stale());
            assertNull(late.state());
            assertEquals(before, search.stateJson());
            assertTrue(search.complete(first).stale());
            // An id above Long.MAX_VALUE is an unsigned id, never running here.
            assertTrue(search.complete(-1L).stale());
        }
    }

    @Test
    void argumentsAreCheckedBeforeTheCall() {
        try (System counter = new System("counter")) {
            assertThrows(ArgumentException.class, () -> counter.send(null));
            assertThrows(ArgumentException.class, () -> counter.sendJson("\"increment\"\0junk"));
            assertThrows(ArgumentException.class, () -> counter.send(Map.of("increment", new Object())));
            assertThrows(ArgumentException.class, () -> counter.send(Map.of("increment", Double.NaN)));
            assertThrows(ArgumentException.class, () -> counter.query(null));
            assertThrows(ArgumentException.class, () -> new System(null));
            assertEquals(0L, counter.state().get("count"));
        }
    }

    @Test
    void aLoneSurrogateReachesTheLibraryAsInvalidUtf8() {
        try (System counter = new System("counter")) {
            JsonException e = assertThrows(JsonException.class, () -> counter.sendJson("\"incr\uD800ement\""));
            assertTrue(e.libraryMessage().toLowerCase().contains("utf-8"), e.libraryMessage());
            // Written as a value, it is escaped as \ud800, which the library rejects too.
            JsonException escaped = assertThrows(JsonException.class, () -> counter.send("incr\uD800ement"));
            assertTrue(escaped.libraryMessage().contains("surrogate"), escaped.libraryMessage());
            assertEquals(0L, counter.state().get("count"));
        }
    }

    @Test
    void aClosedSystemThrowsHandleExceptionAndCloseIsIdempotent() {
        System counter = new System("counter");
        counter.close();
        counter.close();
        assertTrue(counter.isClosed());
        HandleException e = assertThrows(HandleException.class, () -> counter.send("increment"));
        assertEquals(CorelogicException.ERR_HANDLE, e.status());
        assertThrows(HandleException.class, counter::stateJson);
        assertThrows(HandleException.class, () -> counter.onCommand(command -> {}));
    }

    @Test
    void aFreedOrForeignHandleIsAnErrorNotACrash() throws Exception {
        System counter = new System("counter");
        long handle = Handles.of(counter);
        counter.close();
        assertThrows(HandleException.class, () -> Native.state(handle));
        assertThrows(HandleException.class, () -> Native.send(handle, "\"increment\"".getBytes(), null));
        assertThrows(HandleException.class, () -> Native.systemFree(handle));
        assertThrows(HandleException.class, () -> Native.state(0x5eed_f00dL));
    }

    @Test
    void handlersSeeEveryCommandAndStateAndTheirCallsAreQueued() {
        try (System search = new System("search")) {
            List<Command> commands = new ArrayList<>();
            List<Object> queries = new ArrayList<>();
            List<Batch> inner = new ArrayList<>();
            search.onCommand(command -> {
                commands.add(command);
                if (command instanceof Command.Start start) {
                    // Answer at once: queued, run after this step, before send returns.
                    inner.add(search.deliver(start.id(), Map.of("pageLoaded",
                            Map.of("items", List.of(Map.of("id", 1, "name", "a/b", "stars", 1))))));
                }
            });
            search.onState(state -> queries.add(state.get("query")));
            Batch batch = search.send(SWIFT);
            assertEquals(2, batch.steps());
            assertEquals(1, ((List<?>) batch.state().get("items")).size());
            assertEquals(0, inner.get(0).steps());
            assertInstanceOf(Command.Start.class, commands.get(0));
            assertEquals(List.of("swift", "swift"), queries);
            search.onCommand(null);
            search.onState(null);
            search.send(Map.of("queryChanged", Map.of("text", "")));
            assertEquals(2, queries.size());
        }
    }

    @Test
    void aHandlerMayCloseItsOwnSystem() {
        System search = new System("search");
        List<Command> seen = new ArrayList<>();
        search.onCommand(command -> {
            seen.add(command);
            search.close();
        });
        Batch batch = search.send(SWIFT);
        assertEquals(1, batch.steps());
        assertEquals(1, seen.size());
        assertTrue(search.isClosed());
        assertThrows(HandleException.class, () -> search.send(SWIFT));
    }

    @Test
    void aThrowingHandlerIsLoggedAndTheCallStillSucceeds() {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger("dev.corelogic");
        List<java.util.logging.LogRecord> records = new ArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        logger.addHandler(capture);
        logger.setUseParentHandlers(false);
        try (System counter = new System("counter")) {
            counter.onState(state -> {
                throw new IllegalStateException("boom");
            });
            assertEquals(1L, counter.send("increment").state().get("count"));
            assertEquals(2L, counter.send("increment").state().get("count"));
        } finally {
            logger.removeHandler(capture);
            logger.setUseParentHandlers(true);
        }
        assertEquals(2, records.size());
        assertEquals("boom", records.get(0).getThrown().getMessage());
    }

    @Test
    void aJournaledSystemRestoresItsStateAndEffects(@TempDir Path directory) {
        Path journal = directory.resolve("search");
        try (System search = new System("search")) {
            search.openJournal(journal, Durability.EVERY_INPUT);
            search.send(SWIFT);
        }
        assertTrue(Files.exists(journal.resolve("snapshot.json")));
        try (System restored = System.restore("search", journal)) {
            assertEquals("swift", restored.state().get("query"));
            assertEquals(1, restored.initialBatch().started().size());
            assertEquals(1L, restored.restoreReport().get("replayed"));
            restored.checkpoint();
            restored.syncJournal();
            restored.closeJournal();
        }
        assertThrows(StorageException.class, () -> System.restore("search", directory.resolve("missing")));
        try (System counter = new System("counter")) {
            assertThrows(ArgumentException.class, () -> counter.openJournal(null, Durability.INTERVAL));
        }
    }
}
