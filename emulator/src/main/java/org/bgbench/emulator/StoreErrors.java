package org.bgbench.emulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.bgbench.model.Kind;

/**
 * The store's failures during one run, shared by all members: the first message per kind for the report, and the end
 * of the run once the store has failed {@code limit} actions in a row (a store that is down would otherwise fill the
 * whole run with errors). A final class, not an interface, so the per-action {@link #succeeded()} inlines.
 */
final class StoreErrors {
    private final long limit;
    private final Consumer<String> abort;
    private final AtomicLong inARow = new AtomicLong();
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
    }

    /** The store failed an action of kind {@code kindIndex} ({@link Kind#index()}). */
    void failed(int kindIndex, RuntimeException e) {
        failed(Kind.byIndex(kindIndex).code(), e);
    }

    /** Something the store did failed; {@code what} names it in {@link #samples()}. */
    void failed(String what, RuntimeException e) {
        samples.putIfAbsent(what, String.valueOf(e.getMessage()));
        if (inARow.incrementAndGet() >= limit) {
            abort.accept("the store failed " + limit + " actions in a row; last error: " + e.getMessage());
        }
    }

    /** {@code "what: first message"} for each kind that failed, in name order. */
    List<String> samples() {
        List<String> out = new ArrayList<>();
        samples.forEach((k, v) -> out.add(k + ": " + v));
        return out;
    }
}
