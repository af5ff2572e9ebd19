package org.bgbench.emulator;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.bgbench.store.ReplyWait;

/**
 * Members that share platform threads ({@code threadkind=shared}): each thread runs its members in turn as the JDK's
 * continuations, and a member gives up the thread where its store waits for a reply ({@link ReplyWait#handOff()}),
 * where it pauses or where it would spin. So a thread sends its members' requests one after another and then reads
 * the replies, which have mostly arrived meanwhile: one wake-up serves several replies, as pgbench's threads do with
 * many connections each. Blocking threads cost a sleep and a wake-up of the member per round trip, a quarter of BG's
 * CPU samples on a machine shared with the store (docs/benchmarks.md, issue 20, which also has what this buys).
 *
 * <p>Continuations are the JDK's own mechanism under virtual threads, here without the virtual threads' scheduler and
 * I/O poller (a hand-off to another thread per reply); the class is internal ({@code jdk.internal.vm}), so the JVM
 * must export it ({@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}, which {@code bg} passes). A member
 * holding a monitor or a lock that another member could take must not leave the thread (the other would wait for
 * it forever, on the thread the holder needs to come back): such code runs inside {@link ReplyWait#stay()}.
 */
final class SharedThreads {
    static final String EXPORT = "--add-exports java.base/jdk.internal.vm=ALL-UNNAMED";

    private static final Object SCOPE;
    private static final MethodHandle NEW;
    private static final MethodHandle RUN;
    private static final MethodHandle IS_DONE;
    private static final MethodHandle YIELD;
    private static final String UNAVAILABLE;
    /** Hand-offs that let another member run, summed over the threads that have ended (tests, diagnostics). */
    private static final java.util.concurrent.atomic.LongAdder HAND_OFFS = new java.util.concurrent.atomic.LongAdder();
    /** The thread's scheduler while it runs members. */
    private static final ThreadLocal<Carrier> CARRIER = new ThreadLocal<>();

    static {
        Object scope = null;
        MethodHandle create = null;
        MethodHandle run = null;
        MethodHandle isDone = null;
        MethodHandle yield = null;
        String unavailable = null;
        try {
            Class<?> scopeClass = Class.forName("jdk.internal.vm.ContinuationScope");
            Class<?> cont = Class.forName("jdk.internal.vm.Continuation");
            // The caller's lookup: the package is exported to BG's (unnamed) module only, not to everyone.
            MethodHandles.Lookup l = MethodHandles.lookup();
            scope = l.findConstructor(scopeClass, MethodType.methodType(void.class, String.class)).invoke("bg-members");
            create = l.findConstructor(cont, MethodType.methodType(void.class, scopeClass, Runnable.class))
                    .asType(MethodType.methodType(Object.class, Object.class, Runnable.class));
            run = l.findVirtual(cont, "run", MethodType.methodType(void.class))
                    .asType(MethodType.methodType(void.class, Object.class));
            isDone = l.findVirtual(cont, "isDone", MethodType.methodType(boolean.class))
                    .asType(MethodType.methodType(boolean.class, Object.class));
            yield = l.findStatic(cont, "yield", MethodType.methodType(boolean.class, scopeClass))
                    .asType(MethodType.methodType(boolean.class, Object.class));
        } catch (Throwable e) {
            unavailable = "shared needs the JDK's continuations, exported to BG with the JVM option "
                    + EXPORT + " (the bg launcher passes it): " + e;
        }
        SCOPE = scope;
        NEW = create;
        RUN = run;
        IS_DONE = isDone;
        YIELD = yield;
        UNAVAILABLE = unavailable;
    }

    private SharedThreads() {
    }

    /** Why shared threads cannot run in this JVM, or null when they can. */
    static String unavailable() {
        return UNAVAILABLE;
    }

    /** A platform thread, not started, that runs {@code members} in turn until each has returned. */
    static Thread carrier(String name, List<Runnable> members) {
        if (UNAVAILABLE != null) {
            throw new IllegalStateException(UNAVAILABLE);
        }
        Carrier c = new Carrier(members);
        return Thread.ofPlatform().daemon().name(name).unstarted(c::run);
    }

    /** Parks the member for {@code nanos}: on a shared thread its other members run meanwhile. */
    static void park(long nanos) {
        Carrier c = CARRIER.get();
        if (c == null || c.current == null) {
            LockSupport.parkNanos(nanos);
        } else {
            c.current.wakeAt = System.nanoTime() + Math.max(0, nanos);
            c.handOff(null);
        }
    }

    /** Lets the thread's other members, or other threads, run: {@link Thread#yield()} on a thread of its own. */
    static void yieldTurn() {
        Carrier c = CARRIER.get();
        if (c == null || c.current == null) {
            Thread.yield();
        } else {
            c.handOff();
        }
    }

    /** How many times a member has left its thread to another, on the shared threads that have ended so far. */
    static long handOffs() {
        return HAND_OFFS.sum();
    }

    /** Whether the calling code runs as a member of a shared thread. */
    static boolean onSharedThread() {
        Carrier c = CARRIER.get();
        return c != null && c.current != null;
    }

    /**
     * Starts counting the calling member's own CPU time (its slices of the thread) for {@link #cpuEnd}; a member on a
     * thread of its own reads the thread's clock. Returns the start reading, or -1 when there is no clock.
     */
    static long cpuStart() {
        Carrier c = CARRIER.get();
        if (c == null || c.current == null) {
            return threadCpu();
        }
        Member m = c.current;
        m.cpuSlices = 0;
        m.sliceStart = threadCpu();
        m.counting = m.sliceStart >= 0;
        return m.counting ? 0 : -1;
    }

    /** The CPU time since {@link #cpuStart} returned {@code start}: on a shared thread, the member's slices only. */
    static long cpuEnd(long start) {
        Carrier c = CARRIER.get();
        if (c == null || c.current == null) {
            long now = threadCpu();
            return now < 0 ? -1 : now - start;
        }
        Member m = c.current;
        if (!m.counting) {
            return -1;
        }
        m.counting = false;
        return m.cpuSlices + threadCpu() - m.sliceStart;
    }

    private static final java.lang.management.ThreadMXBean CPU_CLOCK = cpuClock();

    private static java.lang.management.ThreadMXBean cpuClock() {
        try {
            java.lang.management.ThreadMXBean t = java.lang.management.ManagementFactory.getThreadMXBean();
            return t.isCurrentThreadCpuTimeSupported() ? t : null;
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** The thread's CPU time in nanoseconds; -1 without a clock (a virtual thread, or measurement disabled). */
    private static long threadCpu() {
        return CPU_CLOCK == null ? -1 : CPU_CLOCK.getCurrentThreadCpuTime();
    }

    /** One member: its continuation and when it may run again (0: now). */
    private static final class Member {
        final Object continuation;
        long wakeAt;
        /** While it waits for a reply: whether the reply has arrived (null: unknown, treated as arrived). */
        java.util.function.BooleanSupplier replyArrived;
        /** The thread's hand-off count when it sent the request it waits for: the oldest is waited for first. */
        long sent;
        /** A sampled call's CPU so far: its finished slices, and where the current one started ({@link #cpuStart}). */
        boolean counting;
        long cpuSlices;
        long sliceStart;

        Member(Runnable body) {
            try {
                continuation = NEW.invokeExact(SCOPE, body);
            } catch (Throwable e) {
                throw new IllegalStateException("cannot create a continuation: " + e, e);
            }
        }
    }

    /** The scheduler of one thread: round robin over its members, parking only when every one waits for time. */
    private static final class Carrier {
        /** The members still to run in this round, and those that ran or wait for time (the next round's). */
        private final ArrayDeque<Member> waiting = new ArrayDeque<>();
        private final List<Member> later = new ArrayList<>();
        private Member current;
        private long handOffs;
        private long sequence;

        Carrier(List<Runnable> members) {
            for (Runnable m : members) {
                waiting.add(new Member(guarded(m)));
            }
        }

        /** A member's body with nothing thrown out of its continuation (it would end the thread's other members). */
        private static Runnable guarded(Runnable m) {
            return () -> {
                try {
                    m.run();
                } catch (Throwable e) {
                    Thread t = Thread.currentThread();
                    t.getUncaughtExceptionHandler().uncaughtException(t, e);
                }
            };
        }

        void run() {
            CARRIER.set(this);
            ReplyWait.install(this::handOff);
            try {
                // Members whose replies have arrived run first; after a round in which nothing could run without
                // blocking, the one whose request went out first runs and blocks in its read (its reply is likely
                // the next to come: one wake-up, as a thread of its own would have).
                Member force = null;
                while (!waiting.isEmpty()) {
                    boolean ran = false;
                    long soonest = Long.MAX_VALUE;
                    Member oldest = null;
                    for (int n = waiting.size(); n > 0; n--) {
                        Member m = waiting.poll();
                        long now = System.nanoTime();
                        if (m.wakeAt != 0 && m.wakeAt - now > 0) {
                            soonest = Math.min(soonest, m.wakeAt - now);
                            later.add(m);
                            continue;
                        }
                        if (m.replyArrived != null && m != force && !m.replyArrived.getAsBoolean()) {
                            if (oldest == null || m.sent - oldest.sent < 0) {
                                oldest = m;
                            }
                            later.add(m);
                            continue;
                        }
                        m.wakeAt = 0;
                        m.replyArrived = null;
                        current = m;
                        try {
                            RUN.invokeExact(m.continuation);
                        } catch (Throwable e) {
                            throw new IllegalStateException("a member's continuation failed: " + e, e);
                        } finally {
                            current = null;
                        }
                        ran = true;
                        if (!isDone(m)) {
                            later.add(m);
                        }
                    }
                    waiting.addAll(later);
                    later.clear();
                    force = ran ? null : oldest;
                    if (!ran && oldest == null && soonest != Long.MAX_VALUE) {
                        LockSupport.parkNanos(soonest);
                    }
                }
            } finally {
                HAND_OFFS.add(handOffs);
                ReplyWait.install(null);
                CARRIER.remove();
            }
        }

        /**
         * Leaves the thread to its other members until this one's turn comes again; stays when it is alone (nothing
         * to gain), inside {@link ReplyWait#stay()}, or pinned by the JDK (native frames): it then waits on the
         * thread, as a platform thread would.
         */
        void handOff() {
            handOff(null);
        }

        /** As {@link #handOff()}, for a member that waits for a reply whose arrival {@code replyArrived} tells. */
        void handOff(java.util.function.BooleanSupplier replyArrived) {
            Member m = current;
            if (m == null) {
                return;
            }
            m.replyArrived = replyArrived;
            m.sent = ++sequence;
            boolean yielded = false;
            if (!waiting.isEmpty() || !later.isEmpty()) {
                if (m.counting) {
                    m.cpuSlices += threadCpu() - m.sliceStart;
                }
                try {
                    yielded = (boolean) YIELD.invokeExact(SCOPE);
                    if (yielded) {
                        handOffs++;
                    }
                } catch (IllegalStateException pinned) {
                    yielded = false;
                } catch (Throwable e) {
                    throw new IllegalStateException("a member could not leave its thread: " + e, e);
                }
            }
            m.replyArrived = null;
            if (m.counting) {
                // A new slice (or, if the member stayed, the same one going on: counted up to now already).
                m.sliceStart = threadCpu();
            }
            if (!yielded && m.wakeAt != 0) {
                long left = m.wakeAt - System.nanoTime();
                m.wakeAt = 0;
                if (left > 0) {
                    LockSupport.parkNanos(left);
                }
            }
        }

        private static boolean isDone(Member m) {
            try {
                return (boolean) IS_DONE.invokeExact(m.continuation);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
