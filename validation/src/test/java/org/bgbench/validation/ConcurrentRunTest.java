package org.bgbench.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real threads, real clock: emulator threads update a store and log what they did with System.nanoTime(); half of the
 * reads go to an asynchronously refreshed replica, so some are stale. The validator must agree with the brute force on
 * every read.
 */
class ConcurrentRunTest {
    @TempDir
    Path tmp;

    private static final int ITEMS = 3;
    private static final int THREADS = 4;
    private static final int ACTIONS = 2500;

    @Test
    void validatorAgreesWithBruteForceOnRealConcurrentLogs() throws Exception {
        AtomicLongArray primary = new AtomicLongArray(3 * ITEMS);
        AtomicLongArray replica = new AtomicLongArray(3 * ITEMS);
        AtomicBoolean running = new AtomicBoolean(true);
        Thread replicator = Thread.ofPlatform().start(() -> {
            while (running.get()) {
                for (int i = 0; i < primary.length(); i++) {
                    replica.set(i, primary.get(i));
                }
                spin(30_000);
            }
        });
        Path dir = tmp.resolve("logs");
        CyclicBarrier go = new CyclicBarrier(THREADS);
        try (LogDirectory d = LogDirectory.create(dir)) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                LogWriter w = d.newWriter();
                long seed = t;
                threads.add(Thread.ofPlatform().start(() -> emulate(w, primary, replica, seed, go)));
            }
            for (Thread t : threads) {
                t.join();
            }
        } finally {
            running.set(false);
            replicator.join();
        }
        ItemValues initial = (k, i) -> 0;
        List<String> expected = Histories.bruteForce(Histories.read(dir), initial);
        ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
        ValidationResult r = Validator.builder(initial, ValueMode.INITIAL)
                .threads(3)
                .readListener((a, k, i, s, e, v, verdict) ->
                        seen.add(a + ":" + k + ":" + i + ":" + s + ":" + e + ":" + v + "=" + verdict))
                .build()
                .validate(dir);
        List<String> got = new ArrayList<>(seen);
        Collections.sort(got);
        assertThat(got).isEqualTo(expected);
        assertThat(r.readsChecked()).isEqualTo(expected.size());
        assertThat(r.unpredictableReads())
                .isEqualTo(expected.stream()
                        .filter(x -> x.endsWith("=UNPREDICTABLE"))
                        .count());
        // final values agree too
        long[] fin = new long[3 * ITEMS];
        for (int i = 0; i < fin.length; i++) {
            fin[i] = primary.get(i);
        }
        ValidationResult f = Validator.builder((k, i) -> fin[k * ITEMS + (int) i], ValueMode.FINAL)
                .build()
                .validate(dir);
        assertThat(f.unpredictableReads()).isEqualTo(r.unpredictableReads());
    }

    private static void emulate(
            LogWriter w, AtomicLongArray primary, AtomicLongArray replica, long seed, CyclicBarrier go) {
        SplittableRandom rnd = new SplittableRandom(seed);
        try {
            go.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        for (int n = 0; n < ACTIONS; n++) {
            byte kind = (byte) rnd.nextInt(3);
            int item = rnd.nextInt(ITEMS);
            int slot = kind * ITEMS + item;
            long start = System.nanoTime();
            spin(rnd.nextInt(20_000));
            if (rnd.nextInt(3) == 0) {
                long d = rnd.nextBoolean() ? 1 : -1;
                primary.addAndGet(slot, d);
                spin(rnd.nextInt(20_000));
                w.delta((byte) 4, kind, item, start, System.nanoTime(), d);
            } else {
                long v = rnd.nextBoolean() ? primary.get(slot) : replica.get(slot);
                spin(rnd.nextInt(10_000));
                w.read(kind, kind, item, start, System.nanoTime(), v);
            }
        }
    }

    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
