package org.bgbench.store.conformance.servers;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A private test server shared by every test class of one JVM: started on the first {@link #get()}, the same instance
 * afterwards, stopped by a shutdown hook when the JVM exits. A failed start is remembered, so later calls fail at once
 * instead of waiting for another start; a missing prerequisite (the precondition skips or fails the calling test) is
 * checked on every call and not remembered.
 *
 * @param <S> the helper's server type
 */
public final class SharedServer<S> {
    private final String what;
    private final Runnable precondition;
    private final Supplier<S> start;
    private final Consumer<S> stop;
    private S server;
    private RuntimeException failure;

    /**
     * @param what         the server in messages and the shutdown hook's thread name, e.g. {@code HBase server}
     * @param precondition checks what the server needs (a JDK, a binary), skipping or failing the calling test
     * @param start        starts the server
     * @param stop         kills it and deletes its files, run by the shutdown hook
     */
    public SharedServer(String what, Runnable precondition, Supplier<S> start, Consumer<S> stop) {
        this.what = what;
        this.precondition = precondition;
        this.start = start;
        this.stop = stop;
    }

    /** The JVM's server, started now if this is the first call. */
    public synchronized S get() {
        if (server != null) {
            return server;
        }
        if (failure != null) {
            throw new IllegalStateException(
                    "the shared " + what + " failed to start earlier: " + failure.getMessage(), failure);
        }
        precondition.run();
        try {
            S s = start.get();
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(() -> stop.accept(s), "bg-" + what.replace(' ', '-') + "-stop"));
            server = s;
            return s;
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        }
    }
}
