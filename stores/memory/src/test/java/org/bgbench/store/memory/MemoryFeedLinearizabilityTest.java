package org.bgbench.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedList;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SR, AFR/TF and VNF at once on one member X: her fixed friends and pages share, a member Y keeps becoming and
 * ceasing to be her friend (AFR, TF) while sharing too, and a stranger Z shares. Every call's start and end are
 * recorded; afterwards each VNF result must be X's feed at some instant between its start and end, given that a
 * write took effect somewhere within its own call (dissertation 6.1: a linearizable store shows no unpredictable read).
 * A store that reads producers one after another without validating, or shows half of an AFR, finds no such instant.
 */
class MemoryFeedLinearizabilityTest {
    private static final int WRITERS = 3;
    private static final int READERS = 3;
    /** At most this many shares a writer; writers pause between shares so the run spans {@link #RUN_NANOS}. */
    private static final int SHARES_PER_WRITER = 2500;

    private static final long RUN_NANOS = 400_000_000L;
    /** Reads are kept for the check at most every {@link #KEEP_EVERY_NANOS}, so they cover the whole run. */
    private static final int READS_KEPT = 4000;

    private static final long KEEP_EVERY_NANOS = 100_000;

    private final String name = "feedlin-" + UUID.randomUUID();

    @AfterEach
    void forget() {
        MemoryStoreProvider.discard(name);
    }

    /** What kind of producer of X a sharer is. */
    private enum Kind {
        FIXED,
        TOGGLED,
        STRANGER
    }

    private record Read(long start, long end, int k, long[] ids) {}

    /** A friendship change between X and Y: {@code friends} after it. */
    private record Change(long invoke, long response, boolean friends) {}

    @ParameterizedTest
    @ValueSource(strings = {"pull", "push/reference", "push/content", "sorted-push/reference"})
    void everyFeedReadIsTheFeedAtAnInstantDuringTheCall(String design) throws Exception {
        SocialGraph g = new SocialGraph(GraphSpec.builder()
                .members(100)
                .friendsPerMember(6)
                .resourcesPerMember(2)
                .attributeCount(1)
                .attributeLength(4)
                .commentLength(10)
                .fragments(1)
                .seed(7)
                .feed(new FeedSpec(10, 3, 0, 1))
                .build());
        int x = 0;
        int[] fixedFriends = friendsOf(g, x);
        List<Integer> pages = new ArrayList<>();
        g.forEachFollowedPage(x, p -> pages.add(g.pageAccount(p)));
        int y = firstStranger(g, x, -1);
        int z = firstStranger(g, x, y);
        // Sharers (account indexes) and what they are to X.
        List<Integer> sharers = new ArrayList<>();
        List<Kind> kinds = new ArrayList<>();
        for (int f : fixedFriends) {
            sharers.add(f);
            kinds.add(Kind.FIXED);
        }
        for (int p : pages) {
            sharers.add(p);
            kinds.add(Kind.FIXED);
        }
        sharers.add(y);
        kinds.add(Kind.TOGGLED);
        sharers.add(z);
        kinds.add(Kind.STRANGER);

        int total = WRITERS * SHARES_PER_WRITER;
        long[] invoke = new long[total + 1];
        long[] response = new long[total + 1];
        Kind[] kindOf = new Kind[total + 1];
        boolean[] visible = new boolean[total + 1];
        AtomicLong nextId = new AtomicLong(1);
        List<Change> changes = new CopyOnWriteArrayList<>();
        List<Read> reads = new CopyOnWriteArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger writersLeft = new AtomicInteger(WRITERS);
        CountDownLatch go = new CountDownLatch(1);

        try (DataStore store = MemoryFeedTest.open(name, design)) {
            StoreConformanceSuite.load(store, g, 2);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                long seed = w;
                threads.add(Thread.ofPlatform().start(() -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    try (StoreSession s = store.openSession()) {
                        go.await();
                        long until = System.nanoTime() + RUN_NANOS;
                        for (int i = 0; i < SHARES_PER_WRITER && System.nanoTime() < until; i++) {
                            LockSupport.parkNanos(100_000);
                            int pick = rnd.nextInt(sharers.size());
                            int account = sharers.get(pick);
                            int[] recipients = null;
                            boolean seen = true;
                            if (!g.isPageAccount(account) && rnd.nextInt(5) == 0) {
                                // Private: with X, or with someone else only.
                                seen = rnd.nextBoolean();
                                recipients = new int[] {g.memberId(seen ? x : (account == 1 ? 2 : 1))};
                            }
                            long rid = g.accountResourceId(account, rnd.nextInt(g.resourcesOf(account)));
                            long t0 = System.nanoTime();
                            int id = (int) nextId.getAndIncrement();
                            s.shareResource(g.accountId(account), rid, id, recipients);
                            response[id] = System.nanoTime();
                            invoke[id] = t0;
                            kindOf[id] = kinds.get(pick);
                            visible[id] = seen;
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    } finally {
                        writersLeft.decrementAndGet();
                    }
                }));
            }
            threads.add(Thread.ofPlatform().start(() -> {
                int xi = g.memberId(x);
                int yi = g.memberId(y);
                try (StoreSession s = store.openSession()) {
                    go.await();
                    while (writersLeft.get() > 0) {
                        s.inviteFriend(yi, xi);
                        long t0 = System.nanoTime();
                        s.acceptFriendRequest(xi, yi);
                        changes.add(new Change(t0, System.nanoTime(), true));
                        Thread.onSpinWait();
                        t0 = System.nanoTime();
                        s.thawFriendship(yi, xi);
                        changes.add(new Change(t0, System.nanoTime(), false));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
            for (int r = 0; r < READERS; r++) {
                long seed = 100 + r;
                threads.add(Thread.ofPlatform().start(() -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    FeedList out = new FeedList();
                    int kept = 0;
                    long keepAt = 0;
                    try (StoreSession s = store.openSession()) {
                        go.await();
                        while (!done.get()) {
                            int k = rnd.nextBoolean() ? 7 : Integer.MAX_VALUE;
                            long t0 = System.nanoTime();
                            s.viewNewsFeed(g.memberId(x), k, out);
                            long t1 = System.nanoTime();
                            if (kept < READS_KEPT && t1 >= keepAt) {
                                reads.add(new Read(t0, t1, k, out.shareIds()));
                                kept++;
                                keepAt = t1 + KEEP_EVERY_NANOS;
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            go.countDown();
            for (Thread t : threads.subList(0, WRITERS + 1)) {
                t.join();
            }
            done.set(true);
            for (Thread t : threads) {
                t.join();
            }
        }
        assertThat(failures).isEmpty();
        assertThat(changes.size()).as("AFR and TF done during the run").isGreaterThan(20);
        assertThat(reads.size()).as("reads checked").isGreaterThan(100);
        int lastId = (int) nextId.get() - 1;
        List<String> violations = new ArrayList<>();
        long nonEmpty = 0;
        for (Read r : reads) {
            String v = check(r, lastId, invoke, response, kindOf, visible, changes);
            if (v != null && violations.size() < 10) {
                violations.add(v);
            }
            nonEmpty += r.ids().length > 0 ? 1 : 0;
        }
        // Enough reads met shares for the check to mean something (on a busy machine writers may start late).
        assertThat(nonEmpty).as("reads that saw shares").isGreaterThan(100);
        assertThat(violations).isEmpty();
    }

    /** Null when some instant in the read's call has exactly this feed; else why not. */
    private static String check(
            Read r,
            int lastId,
            long[] invoke,
            long[] response,
            Kind[] kindOf,
            boolean[] visible,
            List<Change> changes) {
        long[] ids = r.ids();
        boolean hasY = false;
        for (int i = 0; i < ids.length; i++) {
            long id = ids[i];
            if (id < 1 || id > lastId || !visible[(int) id] || kindOf[(int) id] == Kind.STRANGER) {
                return "VNF shows share " + id + ", which X may never see";
            }
            if (i > 0 && ids[i - 1] <= id) {
                return "VNF is not newest first: " + Arrays.toString(ids);
            }
            hasY |= kindOf[(int) id] == Kind.TOGGLED;
        }
        long oldest = ids.length == r.k() ? ids[ids.length - 1] : 0;
        long[] ascending = reverse(ids);
        for (boolean friends : hasY ? new boolean[] {true} : new boolean[] {true, false}) {
            long lo = r.start();
            long hi = r.end();
            for (long id : ids) {
                lo = Math.max(lo, invoke[(int) id]);
            }
            for (int id = 1; id <= lastId; id++) {
                boolean relevant = visible[id] && (kindOf[id] == Kind.FIXED || (friends && kindOf[id] == Kind.TOGGLED));
                if (relevant && id > oldest && Arrays.binarySearch(ascending, id) < 0) {
                    // Missing: it had not taken effect yet, which it had by its response.
                    hi = Math.min(hi, response[id]);
                }
            }
            if (lo <= hi && statusPossible(changes, friends, lo, hi)) {
                return null;
            }
        }
        return "no instant in [" + r.start() + ", " + r.end() + "] shows VNF(k=" + r.k() + ") = "
                + (ids.length > 12 ? ids.length + " shares from " + ids[0] : Arrays.toString(ids));
    }

    private static long[] reverse(long[] desc) {
        long[] a = desc.clone();
        Arrays.sort(a);
        return a;
    }

    /** Whether X and Y may have been friends (or not) at some instant of [lo, hi], given the AFR/TF calls. */
    private static boolean statusPossible(List<Change> changes, boolean friends, long lo, long hi) {
        // Status windows: from the invoke of the change that set it to the response of the next change.
        long from = friends ? Long.MAX_VALUE : Long.MIN_VALUE;
        for (Change c : changes) {
            if (c.friends() == friends) {
                from = Math.min(from, c.invoke());
            } else if (from != Long.MAX_VALUE) {
                if (Math.max(lo, from) <= Math.min(hi, c.response())) {
                    return true;
                }
                from = Long.MAX_VALUE;
            }
        }
        return from != Long.MAX_VALUE && Math.max(lo, from) <= hi;
    }

    private static int[] friendsOf(SocialGraph g, int member) {
        List<Integer> out = new ArrayList<>();
        g.forEachNeighbour(member, Relation.FRIENDS, out::add);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int firstStranger(SocialGraph g, int member, int not) {
        for (int i = 1; i < g.members(); i++) {
            if (i != not && g.initialRelation(member, i) == Relation.NONE) {
                return i;
            }
        }
        throw new IllegalStateException("no stranger");
    }
}
