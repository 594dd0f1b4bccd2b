package dev.corelogic;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One running effect, as an {@link EffectRunner} handler sees it: what to do
 * ({@link #request()}), whether it is still wanted ({@link #isCancelled()}), and a way to
 * deliver several events before the handler returns ({@link #deliver}).
 *
 * <p>Cancellation is cooperative: when the system cancels the effect, the handler's
 * thread is interrupted and {@link #isCancelled()} turns true; whatever the handler still
 * delivers or returns is dropped.
 */
public final class Effect {
    private final EffectRunner runner;
    private final long id;
    private final String feedback;
    private final Object request;
    private final CountDownLatch cancelled = new CountDownLatch(1);

    Effect(EffectRunner runner, long id, String feedback, Object request) {
        this.runner = runner;
        this.id = id;
        this.feedback = feedback;
        this.request = request;
    }

    /** The effect's id (unsigned). */
    public long id() {
        return id;
    }

    /** The name of the feedback that asked for it. */
    public String feedback() {
        return feedback;
    }

    /** What to do: the request as parsed JSON (see {@link Json}). */
    public Object request() {
        return request;
    }

    /** True once the system cancelled the effect (or the runner closed). */
    public boolean isCancelled() {
        return cancelled.getCount() == 0;
    }

    /**
     * Waits until the effect is cancelled or {@code timeout} passes; returns
     * {@link #isCancelled()}. The way to sleep in a handler (a timer effect).
     */
    public boolean awaitCancellation(Duration timeout) throws InterruptedException {
        return cancelled.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Delivers one event now (the handler keeps running). Returns false once the effect is
     * no longer running: the event was dropped, and the handler should stop.
     */
    public boolean deliver(Object event) {
        return runner.deliver(this, event);
    }

    void cancel() {
        cancelled.countDown();
    }

    @Override
    public String toString() {
        return "Effect(" + Long.toUnsignedString(id) + ", " + feedback + ", " + Json.write(request) + ")";
    }
}
