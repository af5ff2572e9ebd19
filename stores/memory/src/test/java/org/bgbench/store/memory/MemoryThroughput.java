package org.bgbench.store.memory;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;

/**
 * Quick throughput check of the store alone (no emulator): actions per second with 1 and 2 threads on the
 * dissertation's graph (M=10,000, φ=ρ=100). Not a test; run by hand:
 * {@code java -cp <test class path> org.bgbench.store.memory.MemoryThroughput [seconds-per-case]}.
 */
public final class MemoryThroughput {
    private interface Op {
        /** Performs one unit of work (returns the actions it performed) for thread {@code t} with random {@code r}. */
        int run(StoreSession s, int t, int threads, long r, int step);
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        GraphSpec spec = GraphSpec.defaults();
        SocialGraph g = new SocialGraph(spec);
        DataStore store =
                new MemoryStoreProvider().open(StoreSettings.of(Map.of(MemoryStoreProvider.NAME_KEY, "throughput")));
        long t0 = System.nanoTime();
        StoreConformanceSuite.load(store, g, 2);
        System.out.printf(
                Locale.ROOT,
                "loaded %s in %.2f s: %s%n",
                spec.fingerprint(),
                (System.nanoTime() - t0) / 1e9,
                store.counts());
        int m = g.members();
        int ac = spec.attributeCount();
        ThreadLocal<ProfileView> pv = ThreadLocal.withInitial(() -> new ProfileView(ac));
        ThreadLocal<MemberList> ml = ThreadLocal.withInitial(() -> new MemberList(ac));
        ThreadLocal<ResourceList> rl = ThreadLocal.withInitial(ResourceList::new);

        Op vp = (s, t, n, r, i) -> {
            s.viewProfile(g.memberId((int) ((r >>> 1) % m)), g.memberId((int) ((r >>> 33) % m)), pv.get());
            return 1;
        };
        Op vpHot = (s, t, n, r, i) -> {
            s.viewProfile(g.memberId((int) ((r >>> 1) % m)), g.memberId(0), pv.get());
            return 1;
        };
        Op lf = (s, t, n, r, i) -> {
            MemberList l = ml.get();
            l.clear();
            s.listFriends(g.memberId((int) ((r >>> 1) % m)), g.memberId((int) ((r >>> 33) % m)), l);
            return 1;
        };
        Op vtr = (s, t, n, r, i) -> {
            ResourceList l = rl.get();
            l.clear();
            s.viewTopKResources(g.memberId((int) ((r >>> 1) % m)), g.memberId((int) ((r >>> 33) % m)), 5, l);
            return 1;
        };
        // IF, AFR, TF on a pair from two different fragments (so not related initially) in this thread's own block of
        // members: the cycle leaves the graph as it found it and every action is valid.
        int half = m / 2;
        Op cycle = (s, t, n, r, i) -> {
            int a = (int) ((r >>> 1) % (half / n)) + t * (half / n);
            int b = (a + half) % m;
            s.inviteFriend(g.memberId(a), g.memberId(b));
            s.acceptFriendRequest(g.memberId(b), g.memberId(a));
            s.thawFriendship(g.memberId(a), g.memberId(b));
            return 3;
        };

        String[] names = {"VP uniform", "VP one hot member", "LF (100 friends)", "VTR k=5", "IF+AFR+TF"};
        Op[] ops = {vp, vpHot, lf, vtr, cycle};
        for (int threads = 1; threads <= 2; threads++) {
            for (int k = 0; k < ops.length; k++) {
                measure(store, ops[k], threads, 0.5);
                double[] r = measure(store, ops[k], threads, seconds);
                System.out.printf(
                        Locale.ROOT,
                        "%d thread%s  %-18s %,12.0f actions/s  (%.0f ns/action/thread, %.2f bytes allocated/action)%n",
                        threads,
                        threads == 1 ? " " : "s",
                        names[k],
                        r[0],
                        threads * 1e9 / r[0],
                        r[1]);
            }
        }
        System.out.println("counts after: " + store.counts());
        store.close();
        MemoryStoreProvider.discard("throughput");
    }

    /** {actions/s, bytes allocated per action}. */
    private static double[] measure(DataStore store, Op op, int threads, double seconds) throws Exception {
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        LongAdder actions = new LongAdder();
        LongAdder allocated = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int self = t;
            workers.add(Thread.ofPlatform().start(() -> {
                long x = 0x9E3779B97F4A7C15L * (self + 1);
                long done = 0;
                try (StoreSession s = store.openSession()) {
                    start.await();
                    long bytes = mx.getCurrentThreadAllocatedBytes();
                    for (int i = 0; !stop.get(); i++) {
                        // xorshift: cheaper than any shared random source, so the store dominates the figure.
                        x ^= x << 13;
                        x ^= x >>> 7;
                        x ^= x << 17;
                        done += op.run(s, self, threads, x, i);
                    }
                    allocated.add(mx.getCurrentThreadAllocatedBytes() - bytes);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                actions.add(done);
            }));
        }
        start.await();
        long begin = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        stop.set(true);
        for (Thread w : workers) {
            w.join();
        }
        double elapsed = (System.nanoTime() - begin) / 1e9;
        return new double[] {actions.sum() / elapsed, (double) allocated.sum() / actions.sum()};
    }
}
