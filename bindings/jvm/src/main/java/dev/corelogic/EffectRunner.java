package dev.corelogic;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * Runs a system's effects as tasks on an {@link ExecutorService}: the host side of the
 * feedback loop on the JVM (the counterpart of the Python binding's {@code ThreadRunner}).
 *
 * <pre>{@code
 * try (var search = new System("search"); var runner = new EffectRunner(search)) {
 *     runner.effect("loadPage", effect -> {
 *         Map<?, ?> request = (Map<?, ?>) effect.request();
 *         return Map.of("pageLoaded", fetch((String) request.get("url")));
 *     });
 *     runner.start();
 *     runner.send(Map.of("queryChanged", Map.of("text", "swift")));
 *     runner.awaitState(state -> !((List<?>) state.get("items")).isEmpty(), Duration.ofSeconds(5));
 * }
 * }</pre>
 *
 * <p>One handler per feedback name. Every {@code start} command becomes a task running
 * the handler; every {@code cancel} marks its {@link Effect} cancelled and interrupts the
 * task. A handler returns an event to deliver (or null), and may {@link Effect#deliver}
 * more on the way; when it returns, the effect is completed. Results of an effect that is
 * no longer running are dropped (the library answers STALE): handlers never check that.
 * A handler that throws has its exception passed to {@link #onError} (which may map it to
 * an event), or logged; the effect is then completed.
 *
 * <p>The runner registers the system's command and state handlers, so it sees every
 * command whoever made the call, from any thread; do not also act on the effects of the
 * batches those calls return. When started, it also runs handlers for the effects
 * already running (a creation batch, a restored state). One runner per system. In patch
 * mode ({@link System#setOutput}) the runner follows the patches with a {@link StateMirror},
 * so {@link #awaitState}'s predicates still see whole states.
 */
public final class EffectRunner implements AutoCloseable {
    /** A feedback's handler: runs one effect, returns the event to deliver, or null. */
    @FunctionalInterface
    public interface Handler {
        Object run(Effect effect) throws Exception;
    }

    private static final java.lang.System.Logger LOG = java.lang.System.getLogger("dev.corelogic.runner");

    private final System system;
    private final ExecutorService executor;
    private final boolean ownsExecutor;
    private final Set<String> feedbacks;
    private final Map<String, Handler> handlers = new ConcurrentHashMap<>();
    private volatile BiFunction<Effect, Exception, Object> onError;

    private final Object lock = new Object();
    private final Map<Long, Job> jobs = new HashMap<>();
    /** While starting: ids started, cancelled or finished by commands (the listing read may be older). */
    private Set<Long> seenWhileStarting;
    private boolean started;
    private boolean closed;

    private final Object stateLock = new Object();
    private Map<String, Object> state;
    private long stateVersion;
    /** Patch mode: the runner's copy of the state, and whether it missed a patch. */
    private StateMirror mirror;
    private boolean needsResync;

    private static final class Job {
        final Effect effect;
        Future<?> future;

        Job(Effect effect) {
            this.effect = effect;
        }
    }

    /** A runner with its own pool of daemon threads ({@code corelogic-effect-N}), shut down by {@link #close()}. */
    public EffectRunner(System system) {
        this(system, Executors.newCachedThreadPool(daemonThreads()), true);
    }

    /** A runner whose tasks run on {@code executor} (not shut down by {@link #close()}). */
    public EffectRunner(System system, ExecutorService executor) {
        this(system, executor, false);
    }

    private EffectRunner(System system, ExecutorService executor, boolean ownsExecutor) {
        if (system == null) throw new ArgumentException("an EffectRunner needs a system, not null");
        if (executor == null) throw new ArgumentException("an EffectRunner needs an executor, not null");
        this.system = system;
        this.executor = executor;
        this.ownsExecutor = ownsExecutor;
        this.feedbacks = feedbackNames(system.feature());
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "corelogic-effect-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    private static Set<String> feedbackNames(String feature) {
        Set<String> names = new HashSet<>();
        for (Map<String, Object> description : CoreLogic.features()) {
            if (!feature.equals(description.get("name"))) continue;
            if (description.get("feedbacks") instanceof List<?> list) {
                for (Object feedback : list) names.add((String) Json.object(feedback).get("name"));
            }
        }
        return names;
    }

    /**
     * Registers the handler of the feedback {@code feedback}; returns this runner. Register
     * before {@link #start()}: an effect whose feedback has no handler stays running.
     *
     * @throws ArgumentException the feature has no such feedback, or the handler is null
     */
    public EffectRunner effect(String feedback, Handler handler) {
        if (feedback == null || !feedbacks.contains(feedback)) {
            throw new ArgumentException("feature '" + system.feature() + "' has no feedback '" + feedback
                    + "' (feedbacks: " + String.join(", ", new java.util.TreeSet<>(feedbacks)) + ")");
        }
        if (handler == null) throw new ArgumentException("the handler of '" + feedback + "' must not be null");
        handlers.put(feedback, handler);
        return this;
    }

    /** Maps a handler's exception to an event to deliver (or null); without it, exceptions are logged. */
    public EffectRunner onError(BiFunction<Effect, Exception, Object> mapper) {
        this.onError = mapper;
        return this;
    }

    /** The system this runner drives. */
    public System system() {
        return system;
    }

    /** Sends an event to the system (the same as {@code system().send(event)}). */
    public Batch send(Object event) {
        return system.send(event);
    }

    /** The effects whose handlers are running or queued: {@code {id: feedback}}. */
    public Map<Long, String> running() {
        synchronized (lock) {
            Map<Long, String> out = new LinkedHashMap<>();
            for (Map.Entry<Long, Job> entry : jobs.entrySet()) out.put(entry.getKey(), entry.getValue().effect.feedback());
            return out;
        }
    }

    // -- lifetime --------------------------------------------------------------------

    /**
     * Attaches to the system (its command and state handlers) and runs handlers for the
     * effects already running. Idempotent.
     *
     * @throws IllegalStateException the runner is closed, or the system already has a command handler
     */
    public void start() {
        synchronized (lock) {
            if (closed) throw new IllegalStateException("this runner is closed");
            if (started) return;
            if (system.commandHandler() != null) {
                throw new IllegalStateException("the " + system.feature()
                        + " system already has a command handler (another runner?): one runner per system");
            }
            started = true;
            seenWhileStarting = new HashSet<>();
        }
        if (system.output() == Output.PATCH) {
            Baseline baseline = system.resync();
            synchronized (stateLock) {
                mirror = new StateMirror(baseline);
                state = mirror.state();
            }
        } else {
            synchronized (stateLock) {
                state = system.state();
            }
        }
        system.onCommand(this::onCommand);
        system.onState(this::onState);
        // Outside the lock: a call running on another thread may be inside onCommand.
        List<Command.Start> running = system.effects();
        synchronized (lock) {
            for (Command.Start effect : running) {
                if (!seenWhileStarting.contains(effect.id())) start(effect);
            }
            seenWhileStarting = null;
        }
    }

    /**
     * Detaches from the system, cancels every running handler (its {@link Effect} is
     * cancelled and its thread interrupted) and shuts down the runner's own pool. The
     * effects stay running in the system: a new runner resumes them. Idempotent.
     */
    @Override
    public void close() {
        List<Job> cancelled;
        synchronized (lock) {
            if (closed) return;
            closed = true;
            cancelled = List.copyOf(jobs.values());
            jobs.clear();
        }
        if (started && !system.isClosed()) {
            try {
                system.onCommand(null);
                system.onState(null);
            } catch (HandleException e) {
                // Closed meanwhile: nothing to detach from.
            }
        }
        for (Job job : cancelled) {
            job.effect.cancel();
            if (job.future != null) job.future.cancel(true);
        }
        synchronized (stateLock) {
            stateLock.notifyAll();
        }
        if (ownsExecutor) {
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // -- waiting ---------------------------------------------------------------------

    /**
     * Blocks until {@code predicate(state)} holds on the current or a new state; returns
     * that state. Never call it from a handler (it would wait for its own effect).
     *
     * @throws TimeoutException the condition did not hold within {@code timeout}
     * @throws IllegalStateException the runner closed while waiting
     */
    public Map<String, Object> awaitState(Predicate<Map<String, Object>> predicate, Duration timeout)
            throws InterruptedException, TimeoutException {
        start();
        long deadline = java.lang.System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<String, Object> current;
            long version;
            boolean resync;
            synchronized (stateLock) {
                resync = needsResync;
            }
            if (resync) catchUp();
            synchronized (stateLock) {
                current = state;
                version = stateVersion;
            }
            // Outside the lock: the predicate may call the system.
            if (predicate.test(current)) return current;
            synchronized (stateLock) {
                while (stateVersion == version && !needsResync) {
                    if (closed) throw new IllegalStateException("this runner is closed");
                    long remaining = deadline - java.lang.System.nanoTime();
                    if (remaining <= 0) {
                        throw new TimeoutException("the condition was not met within " + timeout + "; state: "
                                + Json.write(state));
                    }
                    TimeUnit.NANOSECONDS.timedWait(stateLock, remaining);
                }
            }
        }
    }

    // -- commands (called on the thread that made the call, the system locked) --------

    /** Package-private for the rules tests (docs/hosts.md), which replay commands. */
    void onCommand(Command command) {
        synchronized (lock) {
            if (closed) return;
            if (seenWhileStarting != null) seenWhileStarting.add(command.id());
            if (command instanceof Command.Start start) {
                start(start);
            } else if (command instanceof Command.Cancel cancel) {
                Job job = jobs.remove(cancel.id());
                if (job != null) {
                    job.effect.cancel();
                    if (job.future != null) job.future.cancel(true);
                }
            }
        }
    }

    private void onState(Map<String, Object> message) {
        synchronized (stateLock) {
            if (message.get("patch") instanceof List<?> || (system.output() == Output.PATCH
                    && message.get("revision") instanceof Number && message.containsKey("state"))) {
                // Patch mode (a patch, or a small state sent whole): follow the changes;
                // after a gap (a patch this runner never saw), the waiting thread catches
                // up with resync, outside the handler.
                if (mirror == null || !mirror.apply(message)) {
                    needsResync = true;
                    stateLock.notifyAll();
                    return;
                }
                state = mirror.state();
            } else {
                mirror = null;
                state = message;
            }
            stateVersion++;
            stateLock.notifyAll();
        }
    }

    private void catchUp() {
        Baseline baseline = system.resync();
        synchronized (stateLock) {
            if (mirror == null) mirror = new StateMirror(baseline);
            else mirror.reset(baseline);
            needsResync = false;
            state = mirror.state();
            stateVersion++;
        }
    }

    /** Called with lock held. */
    private void start(Command.Start command) {
        if (jobs.containsKey(command.id())) return;
        Handler handler = handlers.get(command.feedback());
        if (handler == null) {
            LOG.log(java.lang.System.Logger.Level.WARNING, "no handler for feedback '" + command.feedback()
                    + "': effect " + Long.toUnsignedString(command.id()) + " stays running");
            return;
        }
        Job job = new Job(new Effect(this, command.id(), command.feedback(), command.request()));
        jobs.put(command.id(), job);
        try {
            job.future = executor.submit(() -> run(job, handler));
        } catch (RejectedExecutionException e) {
            jobs.remove(command.id());
            LOG.log(java.lang.System.Logger.Level.ERROR, "the executor rejected effect " + job.effect, e);
        }
    }

    private void run(Job job, Handler handler) {
        Effect effect = job.effect;
        try {
            if (effect.isCancelled()) return;
            Object event = handler.run(effect);
            if (event != null) deliver(effect, event);
        } catch (InterruptedException e) {
            if (!effect.isCancelled()) failed(effect, e);
        } catch (Exception e) {
            if (!effect.isCancelled()) failed(effect, e);
        } finally {
            synchronized (lock) {
                if (jobs.get(effect.id()) == job) jobs.remove(effect.id());
                if (seenWhileStarting != null) seenWhileStarting.add(effect.id());
            }
            // The interrupt of a cancel that raced with the end of the handler stays here.
            Thread.interrupted();
            if (!effect.isCancelled() && !system.isClosed()) {
                try {
                    system.completeQuietly(effect.id());
                } catch (CorelogicException e) {
                    LOG.log(java.lang.System.Logger.Level.ERROR, "completing " + effect + " failed", e);
                }
            }
        }
    }

    boolean deliver(Effect effect, Object event) {
        if (effect.isCancelled() || system.isClosed()) return false;
        try {
            if (system.deliverQuietly(effect.id(), event) == System.Quiet.STALE) return false;
        } catch (HandleException e) {
            return false;
        }
        return !effect.isCancelled();
    }

    private void failed(Effect effect, Exception error) {
        BiFunction<Effect, Exception, Object> mapper = onError;
        if (mapper == null) {
            LOG.log(java.lang.System.Logger.Level.ERROR, effect + " failed", error);
            return;
        }
        try {
            Object event = mapper.apply(effect, error);
            if (event != null) deliver(effect, event);
        } catch (RuntimeException e) {
            LOG.log(java.lang.System.Logger.Level.ERROR, "onError threw for " + effect, e);
        }
    }
}
