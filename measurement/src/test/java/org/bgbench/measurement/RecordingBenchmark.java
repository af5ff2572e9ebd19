package org.bgbench.measurement;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntFunction;
import org.bgbench.measurement.resource.ResourceMonitor;
import org.bgbench.model.Kind;

/**
 * Manual micro benchmark of the recording path (not a test; run its main). Compares BG's striped recorder at several
 * stripe counts with HdrHistogram's own multi-writer {@code Recorder} per (stripe, kind), using platform and virtual
 * threads. Prints wall-clock ns per record over all threads (the inverse of the recording throughput the machine
 * sustains) and CPU ns per record (wall time × busy cores / records).
 */
public final class RecordingBenchmark {
    private static final int KINDS = Kind.count();
    private static final long[] LATENCIES = new long[4096];

    static {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < LATENCIES.length; i++) {
            // Log-uniform between 100 µs and 200 ms: spread over many histogram slots, like real latencies.
            LATENCIES[i] = (long) (100_000 * Math.pow(2000, random.nextDouble()));
        }
    }

    interface Sink {
        void record(int thread, int kind, long nanos);
    }

    public static void main(String[] args) throws Exception {
        long total = args.length > 0 ? Long.parseLong(args[0]) : 40_000_000L;
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf(Locale.ROOT, "%d processors, %,d records per configuration%n", cores, total);
        for (int round = 0; round < 2; round++) {
            boolean report = round == 1;
            for (int stripes : new int[] {1, 4, 8}) {
                Measurements m = Measurements.builder()
                        .stripes(stripes)
                        .resourceMonitor(ResourceMonitor.create(List.of()))
                        .build();
                Sink sink = (t, k, v) -> m.recorder(t).ok(k, v);
                run("bg striped S=" + stripes, sink, total, report, cores);
            }
            for (int stripes : new int[] {1, 4}) {
                org.HdrHistogram.Recorder[][] hdr = new org.HdrHistogram.Recorder[stripes][KINDS];
                for (var row : hdr) {
                    for (int k = 0; k < KINDS; k++) {
                        row[k] = new org.HdrHistogram.Recorder(
                                Latencies.LOWEST_NS, Latencies.HIGHEST_NS, Latencies.DIGITS);
                    }
                }
                int mask = stripes - 1;
                Sink sink = (t, k, v) -> hdr[t & mask][k].recordValue(Math.min(v, Latencies.HIGHEST_NS));
                run("HdrHistogram Recorder S=" + stripes, sink, total, report, cores);
            }
        }
        samplingCost();
    }

    /** Cost of the sampling side: one interval sample (every second in a run) and one full result. */
    private static void samplingCost() {
        try (Measurements m = Measurements.builder().build()) {
            m.startMeasuring();
            Recorder r = m.recorder(0);
            long sampleNanos = 0;
            int samples = 20;
            for (int s = 0; s < samples; s++) {
                for (int i = 0; i < 1_000_000; i++) {
                    r.ok(i % KINDS, LATENCIES[i & (LATENCIES.length - 1)]);
                }
                long start = System.nanoTime();
                m.sample();
                sampleNanos += System.nanoTime() - start;
            }
            m.stopMeasuring();
            long start = System.nanoTime();
            m.result();
            long resultNanos = System.nanoTime() - start;
            System.out.printf(
                    Locale.ROOT,
                    "sample(): %.1f ms each (%d kinds, %d stripes, %.1f MB recording state);" + " result(): %.1f ms%n",
                    sampleNanos / 1e6 / samples,
                    KINDS,
                    m.stripeCount(),
                    m.recordingBytes() / 1e6,
                    resultNanos / 1e6);
        }
    }

    private static void run(String name, Sink sink, long total, boolean report, int cores) throws Exception {
        for (Object[] config : new Object[][] {{"platform", 2}, {"platform", 64}, {"virtual", 10_000}}) {
            boolean virtual = config[0].equals("virtual");
            int threads = (Integer) config[1];
            long perThread = total / threads;
            IntFunction<Runnable> body = t -> () -> {
                int i = t * 7;
                for (long n = 0; n < perThread; n++, i++) {
                    sink.record(t, i % KINDS, LATENCIES[i & (LATENCIES.length - 1)]);
                }
            };
            CountDownLatch done = new CountDownLatch(threads);
            long start = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                Runnable r = body.apply(t);
                Runnable task = () -> {
                    r.run();
                    done.countDown();
                };
                if (virtual) {
                    Thread.ofVirtual().start(task);
                } else {
                    Thread.ofPlatform().start(task);
                }
            }
            done.await();
            long elapsed = System.nanoTime() - start;
            long records = perThread * threads;
            if (report) {
                System.out.printf(
                        Locale.ROOT,
                        "%-26s %-8s %6d threads: %6.1f ns/record wall, %6.1f ns/record CPU," + " %5.1f M records/s%n",
                        name,
                        config[0],
                        threads,
                        (double) elapsed / records,
                        (double) elapsed * Math.min(threads, cores) / records,
                        records * 1e3 / elapsed);
            }
        }
    }
}
