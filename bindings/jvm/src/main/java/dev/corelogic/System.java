package dev.corelogic;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One running instance of a feature (a {@code corelogic_system} handle).
 *
 * <pre>{@code
 * try (var counter = new dev.corelogic.System("counter")) {
 *     Batch batch = counter.send("increment");
 *     batch.state();          // {count=1}
 * }
 * }</pre>
 *
 * <p><b>Events</b> are given as a case name ({@code "increment"}), any value {@link Json}
 * writes ({@code Map.of("queryChanged", Map.of("text", "swift"))}), or JSON text wrapped
 * with {@link Json#raw} (sent byte for byte, also by {@link #sendJson}).
 *
 * <p><b>Threads</b>: every method may be called from any thread; the library serializes
 * the calls on one system, so one system can serve a whole thread pool.
 *
 * <p><b>Lifetime</b>: {@link #close()} frees the native handle at once (idempotent);
 * afterwards every method throws {@link HandleException}. A system that becomes
 * unreachable without being closed is freed by a {@link Cleaner} as a safety net.
 *
 * <p>The name shadows {@code java.lang.System} where it is imported: import it by name
 * ({@code import dev.corelogic.System;}, not {@code dev.corelogic.*}) and write
 * {@code java.lang.System.out}; in Kotlin, {@code import dev.corelogic.System as CoreSystem}.
 */
public final class System implements AutoCloseable {
    static final java.lang.System.Logger LOG = java.lang.System.getLogger("dev.corelogic");
    private static final Cleaner CLEANER = Cleaner.create();

    /** {@link System#deliver} / {@link System#complete} without a batch: runners use the handlers. */
    enum Quiet { OK, STALE }

    /** The native handle; the cleaner's action, which must not refer to the System. */
    private static final class Handle implements Runnable {
        final AtomicLong value;

        Handle(long value) {
            this.value = new AtomicLong(value);
        }

        @Override
        public void run() {
            long handle = value.getAndSet(0);
            if (handle == 0) return;
            Native.unregister(handle);
            try {
                Native.systemFree(handle);
            } catch (CorelogicException e) {
                // Already freed: nothing to release.
            }
        }
    }

    private final String feature;
    private final Handle handle;
    private final Cleaner.Cleanable cleanable;
    private final Batch initialBatch;
    private final Map<String, Object> restoreReport;
    private volatile Consumer<Command> commandHandler;
    private volatile Consumer<Map<String, Object>> stateHandler;
    private volatile Output output = Output.FULL;

    /** A system of {@code feature} in its initial state. */
    public System(String feature) {
        this(feature, null);
    }

    /**
     * A system of {@code feature} starting from {@code state} (a {@link Map}, or
     * {@link Json#raw} text; null for the feature's initial state). Effects the state asks
     * for start at once: see {@link #initialBatch()}.
     *
     * @throws NotFoundException unknown feature
     * @throws JsonException the state is not valid JSON
     * @throws SchemaException the state is not this feature's state
     */
    public System(String feature, Object state) {
        Native.load();
        byte[] name = Json.cString(feature, "feature");
        byte[] stateJson = state == null ? null : bytesOf(state, "state");
        byte[][] out = new byte[1][];
        long value = Native.systemNew(name, stateJson, out);
        this.feature = feature;
        this.handle = new Handle(value);
        this.cleanable = CLEANER.register(this, handle);
        this.initialBatch = new Batch(Native.text(out[0]));
        this.restoreReport = null;
    }

    private System(String feature, long value, String batch, Map<String, Object> report) {
        this.feature = feature;
        this.handle = new Handle(value);
        this.cleanable = CLEANER.register(this, handle);
        this.initialBatch = new Batch(batch);
        this.restoreReport = report;
    }

    /** The feature's name. */
    public String feature() {
        return feature;
    }

    /** The creation batch: the first state and the effects it asks for (started at once). */
    public Batch initialBatch() {
        return initialBatch;
    }

    /** True once {@link #close()} has run. */
    public boolean isClosed() {
        return handle.value.get() == 0;
    }

    /** Frees the native system now. Its running effects are forgotten (stop them yourself). Idempotent. */
    @Override
    public void close() {
        cleanable.clean();
    }

    @Override
    public String toString() {
        long value = handle.value.get();
        return "dev.corelogic.System(" + feature + (value == 0 ? ", closed)" : ", handle=" + value + ")");
    }

    private long live() {
        long value = handle.value.get();
        if (value == 0) throw new HandleException("the " + feature + " system is closed");
        return value;
    }

    // -- inputs ----------------------------------------------------------------------

    /**
     * Sends an event from the host; returns the batch of the steps this call ran.
     *
     * @throws JsonException the event is not valid JSON (the state is unchanged)
     * @throws SchemaException the event is not one of this feature's events (the state is unchanged)
     * @throws HandleException the system is closed
     * @throws ArgumentException the event cannot be written as JSON, or holds a NUL character
     */
    public Batch send(Object event) {
        byte[] bytes = eventBytes(event);
        byte[][] out = new byte[1][];
        try {
            Native.send(live(), bytes, out);
            return batch(out[0]);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Sends JSON text byte for byte (the same as {@code send(Json.raw(json))}). */
    public Batch sendJson(String json) {
        return send(Json.raw(json));
    }

    /**
     * Delivers an event produced by the running effect {@code effectId} (unsigned). Returns
     * {@link Batch#STALE} if that effect is not running: the event was dropped.
     */
    public Batch deliver(long effectId, Object event) {
        byte[] bytes = eventBytes(event);
        byte[][] out = new byte[1][];
        try {
            int status = Native.deliver(live(), effectId, bytes, out);
            return status == Native.STALE ? Batch.STALE : batch(out[0]);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Delivers JSON text byte for byte (the same as {@code deliver(effectId, Json.raw(json))}). */
    public Batch deliverJson(long effectId, String json) {
        return deliver(effectId, Json.raw(json));
    }

    /**
     * Reports that the effect {@code effectId} finished and will deliver nothing more.
     * Returns {@link Batch#STALE} if it is not running.
     */
    public Batch complete(long effectId) {
        byte[][] out = new byte[1][];
        try {
            int status = Native.complete(live(), effectId, out);
            return status == Native.STALE ? Batch.STALE : batch(out[0]);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** deliver without asking for a batch; the commands reach the handlers. */
    Quiet deliverQuietly(long effectId, Object event) {
        byte[] bytes = eventBytes(event);
        try {
            return Native.deliver(live(), effectId, bytes, null) == Native.STALE ? Quiet.STALE : Quiet.OK;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** complete without asking for a batch. */
    Quiet completeQuietly(long effectId) {
        try {
            return Native.complete(live(), effectId, null) == Native.STALE ? Quiet.STALE : Quiet.OK;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    private static Batch batch(byte[] json) {
        // A call queued from inside a handler has a batch of 0 steps; none at all never
        // happens when one was asked for, but is read the same way.
        return new Batch(json == null ? "{\"state\":null,\"effects\":[],\"steps\":0}" : Native.text(json));
    }

    // -- reading ---------------------------------------------------------------------

    /** The current state, parsed (a fresh map on every call). */
    public Map<String, Object> state() {
        return Json.object(Json.parse(stateJson()));
    }

    /** The current state as the library's compact JSON: what to store, compare byte for byte, or restore from. */
    public String stateJson() {
        try {
            return Native.text(Native.state(live()));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * The value of the state query {@code name} (e.g. {@code "isLoadingNextPage"}), parsed.
     *
     * @throws NotFoundException unknown query (the message lists the valid ones)
     */
    public Object query(String name) {
        return Json.parse(queryJson(name));
    }

    /** The value of a state query as JSON text. */
    public String queryJson(String name) {
        byte[] bytes = Json.cString(name, "query name");
        try {
            return Native.text(Native.query(live(), bytes));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * The feature's invariants that do not hold in the current state, in declaration order:
     * each a map with "name" and "message"; empty when every one holds
     * ({@code corelogic_system_check}).
     */
    public List<Map<String, Object>> check() {
        String json;
        try {
            json = Native.text(Native.check(live()));
        } finally {
            Reference.reachabilityFence(this);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        if (Json.parse(json) instanceof List<?> list) {
            for (Object broken : list) out.add(Json.object(broken));
        }
        return Collections.unmodifiableList(out);
    }

    /** The effects running now, oldest first. */
    public List<Command.Start> effects() {
        String json;
        try {
            json = Native.text(Native.effects(live()));
        } finally {
            Reference.reachabilityFence(this);
        }
        List<Command.Start> out = new ArrayList<>();
        if (Json.parse(json) instanceof List<?> list) {
            for (Object effect : list) {
                Map<String, Object> e = Json.object(effect);
                out.add(new Command.Start(Command.id(e.get("id")), (String) e.get("feedback"), e.get("request")));
            }
        }
        return Collections.unmodifiableList(out);
    }

    // -- push handlers ---------------------------------------------------------------

    /**
     * Receives each effect command as it is produced; null removes the handler.
     *
     * <p>The handler runs synchronously on the thread whose call produced the command,
     * while the system is locked. It may call this system (deliver an answer at once):
     * that call is queued, returns a batch of 0 steps, and runs before the outer call
     * returns. It must not wait for another thread's call into the same system (a
     * deadlock). What it throws is logged on the {@code dev.corelogic} logger.
     * Commands already produced (the creation batch) are not replayed.
     */
    public void onCommand(Consumer<Command> handler) {
        commandHandler = handler;
        setHandler(Native.KIND_COMMAND, handler != null);
    }

    /**
     * Receives the state after each step (in patch mode, {@code {"revision","base","patch"}},
     * or {@code {"revision","state"}} for a small state: see {@link StateMirror}); null removes
     * the handler. The rules of {@link #onCommand} apply.
     */
    public void onState(Consumer<Map<String, Object>> handler) {
        stateHandler = handler;
        setHandler(Native.KIND_STATE, handler != null);
    }

    Consumer<Command> commandHandler() {
        return commandHandler;
    }

    private void setHandler(int kind, boolean install) {
        long value = live();
        try {
            if (install) Native.register(value, this);
            Native.setHandler(value, kind, install);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    void dispatch(int kind, String json) {
        try {
            if (kind == Native.KIND_COMMAND) {
                Consumer<Command> handler = commandHandler;
                if (handler != null) handler.accept(Command.of(Json.parse(json)));
            } else {
                Consumer<Map<String, Object>> handler = stateHandler;
                if (handler != null) handler.accept(Json.object(Json.parse(json)));
            }
        } catch (Throwable t) {
            LOG.log(java.lang.System.Logger.Level.ERROR, "corelogic " + (kind == Native.KIND_COMMAND ? "command" : "state")
                    + " handler of the " + feature + " system threw", t);
        }
    }

    // -- output: patches and watched queries (corelogic.h, "Output") ----------------

    /**
     * Sets the output mode: {@link Output#FULL} (whole states, the default) or
     * {@link Output#PATCH} (batches and the state handler carry
     * {@code {"revision","base","patch"}}, or the whole state while it is at most 64 bytes of
     * JSON; see {@link StateMirror}). Returns the state and
     * revision the next patch applies to (a new baseline, also when already in patch
     * mode). Creation batches always carry the whole state. May be called from a handler.
     */
    public Baseline setOutput(Output mode) {
        if (mode == null) throw new ArgumentException("output mode must not be null");
        Output before = output;
        // Patch mode is known before the library switches: a state-handler message of the
        // new mode from a step on another thread ({"revision","state"} for a small state) is
        // then never read as a whole state of full mode. Full mode once the library is in it.
        if (mode == Output.PATCH) output = mode;
        try {
            Baseline baseline = Baseline.of(Native.text(Native.setOutput(live(), mode.code)));
            output = mode;
            return baseline;
        } catch (RuntimeException | Error e) {
            output = before;
            throw e;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The output mode set last. */
    public Output output() {
        return output;
    }

    /**
     * The current state and its revision; in patch mode the next patch continues from it.
     * How a host that missed a patch catches up.
     */
    public Baseline resync() {
        try {
            return Baseline.of(Native.text(Native.resync(live())));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Watches state queries: from now on every batch carries {@link Batch#queries()}, the
     * watched queries whose value changed since the previous batch. No names stops
     * watching. Returns the current value of each watched query.
     *
     * @throws NotFoundException an unknown name (nothing changes)
     */
    public Map<String, Object> watchQueries(List<String> names) {
        if (names == null) throw new ArgumentException("query names must not be null");
        for (String name : names) if (name == null) throw new ArgumentException("query names must not be null");
        byte[] json = Json.cString(Json.write(names), "query names");
        try {
            return Json.object(Json.parse(Native.text(Native.watchQueries(live(), json))));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** {@link #watchQueries(List)} with names given one by one. */
    public Map<String, Object> watchQueries(String... names) {
        return watchQueries(names == null ? null : java.util.Arrays.asList(names));
    }

    // -- persistence (docs/persistence.md) -------------------------------------------

    /**
     * Journals every input this system accepts into {@code directory} (created one level
     * deep if missing; it must not hold a journal yet: {@link #restore} it instead).
     *
     * @throws ArgumentException the directory already holds a journal, or this system has one
     * @throws StorageException the directory cannot be created, locked or written
     */
    public void openJournal(Path directory, Durability durability) {
        byte[] path = Json.cString(directory == null ? null : directory.toString(), "journal directory");
        if (durability == null) throw new ArgumentException("durability must not be null");
        try {
            Native.openJournal(live(), path, durability.code);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Writes a snapshot and starts a fresh journal segment. */
    public void checkpoint() {
        try {
            Native.checkpoint(live());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Forces the journal's records to stable storage now. */
    public void syncJournal() {
        try {
            Native.syncJournal(live());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Stops journaling; the directory stays restorable. */
    public void closeJournal() {
        try {
            Native.closeJournal(live());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Restores a system of {@code feature} from the journal directory: the snapshot, then
     * the inputs journaled after it; its {@link #initialBatch()} starts exactly the effects
     * the restored state asks for. It journals on into the same directory.
     *
     * @throws StorageException the directory is missing or unreadable, or another journal holds it
     * @throws CorruptException damaged or inconsistent files (the message names file and line)
     */
    public static System restore(String feature, Path directory) {
        Native.load();
        byte[] name = Json.cString(feature, "feature");
        byte[] path = Json.cString(directory == null ? null : directory.toString(), "journal directory");
        byte[][] out = new byte[2][];
        long value = Native.restore(name, path, out);
        return new System(feature, value, Native.text(out[1]), Json.object(Json.parse(Native.text(out[0]))));
    }

    /** The report of {@link #restore} ({@code {"snapshot":true,"seq":40,...}}); null for a new system. */
    public Map<String, Object> restoreReport() {
        return restoreReport;
    }

    // -- encoding --------------------------------------------------------------------

    /** Encoded case names ("increment" -> "\"increment\""): a feature has few of them. */
    private static final ConcurrentHashMap<String, byte[]> NAMES = new ConcurrentHashMap<>();

    static byte[] eventBytes(Object event) {
        if (event instanceof String name) {
            byte[] cached = NAMES.get(name);
            if (cached != null) return cached;
            byte[] bytes = Json.utf8(Json.write(name));
            if (NAMES.size() < 1024) NAMES.put(name, bytes);
            return bytes;
        }
        return bytesOf(event, "event");
    }

    static byte[] bytesOf(Object value, String what) {
        if (value instanceof Json.Raw raw) return Json.cString(raw.text(), what);
        if (value == null) throw new ArgumentException(what + " must not be null");
        return Json.utf8(Json.write(value));
    }
}
