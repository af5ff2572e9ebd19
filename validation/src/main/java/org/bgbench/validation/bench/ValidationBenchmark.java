package org.bgbench.validation.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.bgbench.validation.ValidationResult;
import org.bgbench.validation.Validator;
import org.bgbench.validation.ValueMode;
import org.bgbench.validation.log.LogDirectory;

/**
 * Generates a synthetic run's logs ({@link SyntheticRun}) in a temporary directory, validates them and prints
 * records/s and peak heap.
 *
 * <pre>
 * java -Xmx2g -cp validation/target/classes org.bgbench.validation.bench.ValidationBenchmark \
 *      --records 20m --threads 2 [--memory 1g] [--error-rate 0.0001] [--dir /tmp/x] [--keep]
 *      [--members 100000] [--resources 1000000] [--emulator-threads 256] [--write-fraction 0.1] [--files 16]
 *
 * java -Xmx2g -cp validation/target/classes:model/target/classes org.bgbench.validation.bench.ValidationBenchmark \
 *      --feed-reads 2m --threads 2 [--feed-members 10000] [--memory 1g] [--error-rate 0.0001]
 * </pre>
 *
 * With {@code --feed-reads} it validates a feed workload instead ({@link SyntheticFeedRun}: VNF reads with SR, AFR and
 * TF overlapping them, dissertation 6.1.2) and prints feed reads/s.
 */
public final class ValidationBenchmark {
    private ValidationBenchmark() {}

    public static void main(String[] args) throws Exception {
        long records = 20_000_000;
        int threads = Runtime.getRuntime().availableProcessors();
        long memory = Validator.DEFAULT_MEMORY_LIMIT;
        double errorRate = 0.0001;
        Path dir = null;
        boolean keep = false;
        SyntheticRun.Config c = SyntheticRun.Config.defaults(records);
        int members = c.members();
        int resources = c.resources();
        int emulatorThreads = c.threads();
        double writeFraction = c.writeFraction();
        int files = c.files();
        long feedReads = 0;
        int feedMembers = 10_000;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--records" -> records = size(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--memory" -> memory = bytes(args[++i]);
                case "--error-rate" -> errorRate = Double.parseDouble(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--keep" -> keep = true;
                case "--members" -> members = (int) size(args[++i]);
                case "--resources" -> resources = (int) size(args[++i]);
                case "--emulator-threads" -> emulatorThreads = Integer.parseInt(args[++i]);
                case "--write-fraction" -> writeFraction = Double.parseDouble(args[++i]);
                case "--files" -> files = Integer.parseInt(args[++i]);
                case "--feed-reads" -> feedReads = size(args[++i]);
                case "--feed-members" -> feedMembers = (int) size(args[++i]);
                default -> {
                    System.err.println("unknown argument " + a + " (see the class comment)");
                    System.exit(2);
                }
            }
        }
        if (feedReads > 0) {
            feeds(feedReads, feedMembers, threads, memory, errorRate, dir, keep);
            return;
        }
        c = new SyntheticRun.Config(
                records,
                new SyntheticRun.Load(emulatorThreads, writeFraction, c.meanActionNs(), c.meanThinkNs()),
                new SyntheticRun.Items(members, resources, c.skew()),
                errorRate,
                files,
                c.seed());
        boolean temp = dir == null;
        Path logs = temp ? Files.createTempDirectory("bg-validation-bench") : dir;
        try {
            long g0 = System.nanoTime();
            SyntheticRun.Summary s;
            long bytes;
            try (LogDirectory d = LogDirectory.create(logs)) {
                s = SyntheticRun.generate(d, c);
                bytes = d.totalBytes();
            }
            double gen = (System.nanoTime() - g0) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "generated %,d records (%,d reads, %,d writes, %,d reads with +1 injected)"
                            + " in %.1f s: %,d MiB of logs in %s, %d files, %.1f s of simulated time%n",
                    s.records(),
                    s.reads(),
                    s.writes(),
                    s.injectedErrors(),
                    gen,
                    bytes >> 20,
                    logs,
                    files,
                    (s.lastNanos() - s.firstNanos()) / 1e9);

            System.gc();
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                p.resetPeakUsage();
            }
            AtomicLong sampledPeak = new AtomicLong();
            Thread sampler = new Thread(
                    () -> {
                        while (!Thread.currentThread().isInterrupted()) {
                            long used = ManagementFactory.getMemoryMXBean()
                                    .getHeapMemoryUsage()
                                    .getUsed();
                            sampledPeak.accumulateAndGet(used, Math::max);
                            try {
                                Thread.sleep(5);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "heap-sampler");
            sampler.setDaemon(true);
            sampler.start();
            long cpu0 = processCpuNanos();
            ValidationResult r = Validator.builder(SyntheticRun::initial, ValueMode.INITIAL)
                    .threads(threads)
                    .memoryLimitBytes(memory)
                    .actionNames("VP", "LF", "VFR", "IF", "AFR", "RFR", "TF", "VTR", "VCR", "PCR", "DCR")
                    .sampleLimit(5)
                    .build()
                    .validate(logs);
            double cpu = (processCpuNanos() - cpu0) / 1e9;
            sampler.interrupt();
            sampler.join();
            long poolPeaks = 0;
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                    poolPeaks += p.getPeakUsage().getUsed();
                }
            }
            System.out.print(r.summary());
            System.out.printf(
                    Locale.ROOT,
                    "RESULT records=%d threads=%d memoryLimit=%dMiB maxHeap=%dMiB seconds=%.2f records/s=%.0f"
                            + " cpuSeconds=%.2f records/cpu-s=%.0f"
                            + " peakHeapSampled=%dMiB peakHeapPoolsSum=%dMiB spilled=%b partitions=%d"
                            + " unpredictable=%d injected=%d%n",
                    r.recordsRead(),
                    threads,
                    memory >> 20,
                    Runtime.getRuntime().maxMemory() >> 20,
                    r.seconds(),
                    r.recordsPerSecond(),
                    cpu,
                    r.recordsRead() / cpu,
                    sampledPeak.get() >> 20,
                    poolPeaks >> 20,
                    r.spilled(),
                    r.partitions(),
                    r.unpredictableReads(),
                    s.injectedErrors());
        } finally {
            if (temp && !keep) {
                try (Stream<Path> w = Files.walk(logs)) {
                    w.sorted(Comparator.reverseOrder()).forEach(p -> {
                        try {
                            Files.delete(p);
                        } catch (IOException e) {
                            System.err.println("cannot delete " + p + ": " + e.getMessage());
                        }
                    });
                }
            }
        }
    }

    private static void feeds(
            long reads, int members, int threads, long memory, double errorRate, Path dir, boolean keep)
            throws IOException {
        SyntheticFeedRun.Config d = SyntheticFeedRun.Config.defaults(reads);
        SyntheticFeedRun.Config c = new SyntheticFeedRun.Config(
                reads,
                new SyntheticFeedRun.Graph(members, Math.max(1, members / 100), d.follows(), d.friends()),
                d.mix(),
                errorRate,
                d.files(),
                d.seed());
        boolean temp = dir == null;
        Path logs = temp ? Files.createTempDirectory("bg-validation-feed-bench") : dir;
        try {
            long g0 = System.nanoTime();
            SyntheticFeedRun.Summary s;
            long bytes;
            try (LogDirectory ld = LogDirectory.create(logs)) {
                s = SyntheticFeedRun.generate(ld, c);
                bytes = ld.totalBytes();
            }
            System.out.printf(
                    Locale.ROOT,
                    "generated %,d feed reads, %,d shares, %,d friendship changes (%,d reads "
                            + "with the newest share dropped) in %.1f s: %,d MiB of logs%n",
                    s.reads(),
                    s.shares(),
                    s.changes(),
                    s.injected(),
                    (System.nanoTime() - g0) / 1e9,
                    bytes >> 20);
            long cpu0 = processCpuNanos();
            ValidationResult r = Validator.builder((kind, item) -> 0, ValueMode.INITIAL)
                    .threads(threads)
                    .memoryLimitBytes(memory)
                    .sampleLimit(3)
                    .feeds(SyntheticFeedRun.initialState(c))
                    .build()
                    .validate(logs);
            double cpu = (processCpuNanos() - cpu0) / 1e9;
            System.out.print(r.summary());
            System.out.printf(
                    Locale.ROOT,
                    "RESULT feedReads=%d shares=%d changes=%d threads=%d seconds=%.2f "
                            + "feedReads/s=%.0f records/s=%.0f cpuSeconds=%.2f unpredictable=%d injected=%d spilled=%b%n",
                    r.feedReads(),
                    r.feedShares(),
                    r.feedFriendshipChanges(),
                    threads,
                    r.seconds(),
                    r.feedReads() / r.seconds(),
                    r.recordsPerSecond(),
                    cpu,
                    r.unpredictableReads(),
                    s.injected(),
                    r.spilled());
        } finally {
            if (temp && !keep) {
                try (Stream<Path> w = Files.walk(logs)) {
                    w.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    /** CPU time of the whole process (all threads, GC included), or 0 if the JVM does not say. */
    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    /** 512m, 1g, 1.5g: binary units. */
    static long bytes(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        int shift = switch (t.charAt(t.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        return shift == 0
                ? Long.parseLong(t)
                : (long) (Double.parseDouble(t.substring(0, t.length() - 1)) * (1L << shift));
    }

    /** 20m, 1.5g, 300k, 1000: decimal units. */
    static long size(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        char last = t.charAt(t.length() - 1);
        switch (last) {
            case 'k' -> mult = 1_000;
            case 'm' -> mult = 1_000_000;
            case 'g' -> mult = 1_000_000_000;
            default -> {
                return Long.parseLong(t.replace("_", ""));
            }
        }
        return (long) (Double.parseDouble(t.substring(0, t.length() - 1)) * mult);
    }
}
