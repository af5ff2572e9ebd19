package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.store.ReplyWait;
import org.junit.jupiter.api.Test;

/** The turns of members that share a platform thread: who runs when, timed waits, pinning, failures, CPU per member. */
class SharedThreadsTest {

    private static void runOn(String name, List<Runnable> members) throws InterruptedException {
        Thread t = SharedThreads.carrier(name, members);
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(t.isAlive()).as("the shared thread ended").isFalse();
    }

    @Test
    void membersTakeTurnsWhereTheyWaitForAReply() throws InterruptedException {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<Runnable> members = new ArrayList<>();
        for (String m : List.of("a", "b", "c")) {
            members.add(() -> {
                for (int i = 0; i < 3; i++) {
                    order.add(m + i);
                    ReplyWait.handOff();
                }
            });
        }
        long before = SharedThreads.handOffs();
        runOn("turns", members);
        assertThat(order).containsExactly("a0", "b0", "c0", "a1", "b1", "c1", "a2", "b2", "c2");
        // Each of the nine hand-offs let another member run: all three were alive until the fourth round.
        assertThat(SharedThreads.handOffs() - before).isEqualTo(9);
    }

    @Test
    void handOffDoesNothingOffASharedThread() {
        AtomicBoolean ran = new AtomicBoolean();
        ReplyWait.handOff();
        SharedThreads.yieldTurn();
        SharedThreads.park(1_000);
        ran.set(true);
        assertThat(ran).isTrue();
        assertThat(SharedThreads.onSharedThread()).isFalse();
    }

    @Test
    void aParkedMemberLetsTheOthersRunAndWakesOnTime() throws InterruptedException {
        AtomicLong slept = new AtomicLong();
        AtomicLong othersTurns = new AtomicLong();
        AtomicBoolean sleeperDone = new AtomicBoolean();
        Runnable sleeper = () -> {
            long t0 = System.nanoTime();
            SharedThreads.park(TimeUnit.MILLISECONDS.toNanos(200));
            slept.set(System.nanoTime() - t0);
            sleeperDone.set(true);
        };
        Runnable busy = () -> {
            while (!sleeperDone.get()) {
                othersTurns.incrementAndGet();
                SharedThreads.park(TimeUnit.MILLISECONDS.toNanos(1));
            }
        };
        runOn("park", List.of(sleeper, busy));
        assertThat(slept.get()).isBetween(TimeUnit.MILLISECONDS.toNanos(200), TimeUnit.MILLISECONDS.toNanos(2_000));
        assertThat(othersTurns.get()).as("the other member ran while one slept").isGreaterThan(20);
    }

    @Test
    void aMemberInsideStayKeepsItsThread() throws InterruptedException {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        Object lock = new Object();
        Runnable pinned = () -> {
            synchronized (lock) {
                try (ReplyWait.Stay s = ReplyWait.stay()) {
                    order.add("p0");
                    ReplyWait.handOff(); // returns at once: the other member does not run inside the monitor
                    order.add("p1");
                }
            }
            ReplyWait.handOff();
            order.add("p2");
        };
        Runnable other = () -> {
            synchronized (lock) { // had the first member left the thread inside the monitor, this would wait forever
                order.add("o");
            }
        };
        runOn("pinned", List.of(pinned, other));
        assertThat(order).containsExactly("p0", "p1", "o", "p2");
    }

    @Test
    void aFailingMemberDoesNotEndTheOthers() throws InterruptedException {
        AtomicLong done = new AtomicLong();
        List<Throwable> uncaught = Collections.synchronizedList(new ArrayList<>());
        Runnable failing = () -> {
            ReplyWait.handOff();
            throw new IllegalStateException("boom");
        };
        Runnable ok = () -> {
            for (int i = 0; i < 5; i++) {
                ReplyWait.handOff();
            }
            done.incrementAndGet();
        };
        Thread t = SharedThreads.carrier("failing", List.of(failing, ok, ok));
        t.setUncaughtExceptionHandler((th, e) -> uncaught.add(e));
        t.start();
        t.join(30_000);
        assertThat(done.get()).isEqualTo(2);
        assertThat(uncaught).singleElement().extracting(Throwable::getMessage).isEqualTo("boom");
    }

    @Test
    void aMembersCpuTimeLeavesOutTheOthersTurns() throws InterruptedException {
        AtomicLong measured = new AtomicLong(-2);
        Runnable measuredMember = () -> {
            long start = SharedThreads.cpuStart();
            spin(20);
            ReplyWait.handOff(); // the other member spins 80 ms of this thread's CPU meanwhile
            spin(20);
            measured.set(SharedThreads.cpuEnd(start));
        };
        Runnable other = () -> spin(80);
        runOn("cpu", List.of(measuredMember, other));
        // About 40 ms of its own; with the other's turn it would be about 120 ms.
        assertThat(measured.get()).isBetween(TimeUnit.MILLISECONDS.toNanos(30), TimeUnit.MILLISECONDS.toNanos(90));
    }

    /** Burns this thread's CPU for about {@code millis} of CPU time. */
    private static void spin(long millis) {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = mx.getCurrentThreadCpuTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        long x = 0;
        while (mx.getCurrentThreadCpuTime() < end) {
            x += System.nanoTime() & 1;
        }
        if (x == 42) {
            System.out.print("");
        }
    }
}
