package org.bgbench.runner.observe;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process-wide list of experiment observers. Options such as {@code --metrics} register one for the life of the
 * command, so every experiment the command runs (one run, a rating's many, a worker's) is followed without threading
 * the observer through each engine call.
 */
public final class Observers {
    private static final Logger LOG = LoggerFactory.getLogger(Observers.class);
    private static final List<ExperimentObserver> OBSERVERS = new CopyOnWriteArrayList<>();

    private Observers() {}

    /** Adds an observer until the returned registration is closed. */
    public static Registration register(ExperimentObserver observer) {
        OBSERVERS.add(observer);
        return () -> OBSERVERS.remove(observer);
    }

    /** Calls every observer, logging and ignoring what one throws. */
    public static void each(Consumer<ExperimentObserver> call) {
        for (ExperimentObserver o : OBSERVERS) {
            try {
                call.accept(o);
            } catch (RuntimeException e) {
                LOG.warn("experiment observer {} failed", o.getClass().getSimpleName(), e);
            }
        }
    }

    /** A registration; closing it removes the observer. */
    @FunctionalInterface
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
