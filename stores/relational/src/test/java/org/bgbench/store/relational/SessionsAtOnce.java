package org.bgbench.store.relational;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Test code the pooled SQL stores run against their own servers: many sessions asking for a connection at the same
 * moment, as T = 64 members opening together do, each holding its connection until all have one. HikariCP's adder
 * could miss such borrowers and leave one to time out with the pool far from full ({@link PoolBorrow}).
 */
public final class SessionsAtOnce {
    /** Where a session's connection comes from: the store's {@code connect()}. */
    @FunctionalInterface
    public interface Connect {
        Connection connect() throws Exception;
    }

    private SessionsAtOnce() {}

    /** {@code rounds} rounds of {@code sessions} threads asking at once; every one must get a connection. */
    public static void allGetAConnection(Connect store, int sessions, int rounds) throws Exception {
        for (int round = 0; round < rounds; round++) {
            List<Connection> held = Collections.synchronizedList(new ArrayList<>());
            List<Throwable> failed = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        held.add(store.connect());
                    } catch (Throwable e) {
                        failed.add(e);
                    }
                }));
            }
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            try {
                assertThat(failed).as("round %d", round).isEmpty();
                assertThat(held).hasSize(sessions);
            } finally {
                for (Connection c : held) {
                    c.close();
                }
            }
        }
    }
}
