package org.bgbench.validation.log;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether the writers of one directory may still write: the first I/O failure of any of them (a full disk, say) stops
 * them all, so that no writer goes on filling the space the run needs for its result, and the logs end where the
 * evidence ends. Read only off the hot path (when a buffer is written out).
 */
final class LogHealth {
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final Runnable onFirstFailure;

    LogHealth(Runnable onFirstFailure) {
        this.onFirstFailure = onFirstFailure;
    }

    static LogHealth standalone() {
        return new LogHealth(() -> {});
    }

    boolean failed() {
        return failure.get() != null;
    }

    /** The first failure, or null. */
    String failure() {
        return failure.get();
    }

    /** Records a failure; the first one stops every writer sharing this object and runs the callback once. */
    void fail(String message) {
        if (failure.compareAndSet(null, message)) {
            onFirstFailure.run();
        }
    }
}
