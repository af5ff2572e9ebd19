package org.bgbench.emulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.bgbench.model.Kind;
import org.bgbench.store.ErrorText;

/**
 * The store's failures during one run, shared by all members: the first message per kind for the report, the end
 * of the run once the store has failed {@code limit} actions in a row (a store that is down would otherwise fill the
 * whole run with errors), and since when every call has failed, with the last failure's words ({@link ErrorText}:
 * the driver's meaning, never its class names; a second in which the
 * store failed every call makes the run incomplete, as one in which it answered nothing). A final class, not an
 * interface, so the per-action {@link #succeeded()} inlines.
 */
final class StoreErrors {
    /** {@link #streakStart} when the last call returned succeeded. */
    private static final long NONE = Long.MIN_VALUE;

    private final long limit;
    private final Consumer<String> abort;
    private final AtomicLong inARow = new AtomicLong();
    /** The start of the first failed call since the last success ({@link System#nanoTime()}), or {@link #NONE}. */
    private final AtomicLong streakStart = new AtomicLong(NONE);

    private volatile String lastFailure;
    private final Map<String, String> samples = new ConcurrentSkipListMap<>();

    /**
     * @param limit failures in a row that end the run
     * @param abort ends the run with the reason given; called again for every further failure beyond the limit
     */
    StoreErrors(long limit, Consumer<String> abort) {
        this.limit = limit;
        this.abort = abort;
    }

    /** An action the store acknowledged: the failures in a row start over. */
    void succeeded() {
        // Read first: an unconditional write would make every member dirty the same cache line on every action.
        if (inARow.getPlain() != 0) {
            inARow.set(0);
        }
        if (streakStart.getPlain() != NONE) {
            streakStart.set(NONE);
        }
    }

    /** The store failed an action of kind {@code kindIndex} ({@link Kind#index()}) that began at {@code startNanos}. */
    void failed(int kindIndex, long startNanos, RuntimeException e) {
        failed(Kind.byIndex(kindIndex).code(), startNanos, e);
    }

    /** Something the store did failed; {@code what} names it in {@link #samples()}. */
    void failed(String what, RuntimeException e) {
        failed(what, System.nanoTime(), e);
    }

    /**
     * Whether every call that returned since the last success failed, and the first of them began at or before
     * {@code nanoTime}: with no success in a second either, the store failed every call in it. A failure streak that
     * began inside the second (one transient error in a quiet second) does not count.
     */
    boolean failingSince(long nanoTime) {
        long start = streakStart.get();
        return start != NONE && start - nanoTime <= 0;
    }

    /** The message of the last failure, or null before the first. */
    String lastFailure() {
        return lastFailure;
    }

    private void failed(String what, long startNanos, RuntimeException e) {
        String message = ErrorText.of(e);
        lastFailure = message;
        if (streakStart.getPlain() == NONE) {
            streakStart.compareAndSet(NONE, startNanos);
        }
        samples.putIfAbsent(what, message);
        if (inARow.incrementAndGet() >= limit) {
            abort.accept("the store failed " + limit + " actions in a row; last error: " + message);
        }
    }

    /** {@code "what: first message"} for each kind that failed, in name order. */
    List<String> samples() {
        List<String> out = new ArrayList<>();
        samples.forEach((k, v) -> out.add(k + ": " + v));
        return out;
    }
}
