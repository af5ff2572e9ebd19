package org.bgbench.validation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogFormat;

/**
 * Validates the reads of a run's logs (dissertation chapter 6) and computes the freshness-confidence curve.
 *
 * <pre>{@code
 * ValidationResult r = Validator.builder(expectedState::value, ValueMode.FINAL)
 *         .threads(8).memoryLimitBytes(2L << 30).actionNames(names)
 *         .build()
 *         .validate(logDirectory);
 * }</pre>
 *
 * <p>Pass 1 streams every log file (files in parallel) and hash-partitions the records by (kind, item), in memory when
 * they fit the memory limit, else into temporary spill files. Pass 2 checks the partitions in parallel, each on its
 * own, with as many partitions in memory at once as the limit allows. A {@code Validator} is immutable and may be
 * reused.
 */
public final class Validator {
    public static final long DEFAULT_MEMORY_LIMIT = 1L << 30;
    public static final int DEFAULT_FRESHNESS_BUCKETS = 10;
    public static final int DEFAULT_SAMPLE_LIMIT = 20;
    static final int MAX_PARTITIONS = 4096;

    private final ItemValues values;
    private final ValueMode mode;
    private final int threads;
    private final long memoryLimitBytes;
    private final Path spillDirectory;
    private final int freshnessBuckets;
    private final long freshnessHorizonNanos;
    private final int sampleLimit;
    private final String[] actionNames;
    private final ReadListener listener;
    private final FeedState feedState;

    private Validator(Builder b) {
        this.feedState = b.feedState;
        this.values = b.values;
        this.mode = b.mode;
        this.threads = b.threads;
        this.memoryLimitBytes = b.memoryLimitBytes;
        this.spillDirectory = b.spillDirectory;
        this.freshnessBuckets = b.freshnessBuckets;
        this.freshnessHorizonNanos = b.freshnessHorizonNanos;
        this.sampleLimit = b.sampleLimit;
        this.actionNames = b.actionNames;
        this.listener = b.listener;
    }

    /**
     * @param values the value of each item, before or after the logged writes as {@code mode} says
     */
    public static Builder builder(ItemValues values, ValueMode mode) {
        return new Builder(values, mode);
    }

    public static final class Builder {
        private final ItemValues values;
        private final ValueMode mode;
        private int threads = Runtime.getRuntime().availableProcessors();
        private long memoryLimitBytes = DEFAULT_MEMORY_LIMIT;
        private Path spillDirectory;
        private int freshnessBuckets = DEFAULT_FRESHNESS_BUCKETS;
        private long freshnessHorizonNanos;
        private int sampleLimit = DEFAULT_SAMPLE_LIMIT;
        private String[] actionNames;
        private ReadListener listener;
        private FeedState feedState;

        private Builder(ItemValues values, ValueMode mode) {
            this.values = Objects.requireNonNull(values, "values");
            this.mode = Objects.requireNonNull(mode, "mode");
        }

        /** Validation threads (default: available processors). */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, not " + threads);
            }
            this.threads = threads;
            return this;
        }

        /**
         * Heap validation may use for records (default 1 GiB); beyond it, partitions spill to disk. Capped at 80 % of
         * the JVM's maximum heap.
         */
        public Builder memoryLimitBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("memory limit must be positive, not " + bytes);
            }
            this.memoryLimitBytes = bytes;
            return this;
        }

        /**
         * Where spill files go (created if missing; the files, and the directory if validation created it, are deleted
         * afterwards). Default: a new subdirectory of the log directory.
         */
        public Builder spillDirectory(Path dir) {
            this.spillDirectory = dir;
            return this;
        }

        /** Buckets of the freshness-confidence curve, b (default 10). */
        public Builder freshnessBuckets(int b) {
            if (b < 1 || b > 1_000_000) {
                throw new IllegalArgumentException("freshness buckets must be in 1..1000000, not " + b);
            }
            this.freshnessBuckets = b;
            return this;
        }

        /** Δ of the freshness curve in ns; 0 (default) means the time the logs span (the experiment duration). */
        public Builder freshnessHorizonNanos(long nanos) {
            if (nanos < 0) {
                throw new IllegalArgumentException("freshness horizon must not be negative");
            }
            this.freshnessHorizonNanos = nanos;
            return this;
        }

        /** Unpredictable reads kept as samples (default 20; the earliest by start time). */
        public Builder sampleLimit(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("sample limit must not be negative");
            }
            this.sampleLimit = n;
            return this;
        }

        /** Names of the action codes, for reports ({@code names[code]}); codes without a name print as numbers. */
        public Builder actionNames(String... names) {
            this.actionNames = names == null ? null : names.clone();
            return this;
        }

        /** Sees every read's verdict (called concurrently). */
        public Builder readListener(ReadListener listener) {
            this.listener = listener;
            return this;
        }

        /**
         * The follows, friendships and shares at the same end of the logs as the item values (the {@link ValueMode}),
         * for the View News Feed reads (dissertation 6.1.2). Without it feed reads are skipped, not checked.
         */
        public Builder feeds(FeedState state) {
            this.feedState = state;
            return this;
        }

        public Validator build() {
            return new Validator(this);
        }
    }

    /** Validates the logs of {@code logs}, checked against their manifest (see {@link #validate(Path)}). */
    public ValidationResult validate(LogDirectory logs) {
        return validate(logs.path());
    }

    /**
     * Validates the logs in {@code logDirectory}. The files are first checked against the manifest the run wrote
     * when it closed them (lengths, checksums, records, a clean end): what is missing, cut short, emptied or damaged
     * is reported ({@link ValidationResult#problems()}) and the result is then not {@link ValidationResult#complete()}.
     * Reads are checked only if the logs still hold every write; otherwise none is, and the result says why.
     */
    public ValidationResult validate(Path logDirectory) {
        return validate(Evidence.of(logDirectory), logDirectory);
    }

    /**
     * What the logs in {@code logDirectory} hold, checked against their manifest, when no read can be checked for a
     * reason of the caller's ({@code whyNotChecked}, e.g. the items' values are unknown): an incomplete result that
     * names every problem and counts the reads. The item values given to the builder are never asked.
     */
    public ValidationResult inspect(Path logDirectory, String whyNotChecked) {
        return inspect(logDirectory, null, whyNotChecked);
    }

    /** As {@link #inspect(Path, String)}, naming the file (e.g. another run's) that is why no read can be checked. */
    public ValidationResult inspect(Path logDirectory, String file, String whyNotChecked) {
        Evidence ev = Evidence.of(logDirectory);
        ev.problem(file, -1, whyNotChecked);
        ev.writesMissing(whyNotChecked);
        long t0 = System.nanoTime();
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(threads, daemonThreads());
        try {
            return incomplete(ev, pass1(ev, null, pool, warnings), warnings, (System.nanoTime() - t0) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Validates the given log files together (they must come from one run: their times share one clock), as they are:
     * without a manifest nothing is verified, damage is only warned about, and the caller vouches for the files.
     */
    public ValidationResult validate(List<Path> files) {
        Path home =
                files.isEmpty() ? Path.of(".") : files.get(0).toAbsolutePath().getParent();
        return validate(Evidence.trusting(files), home);
    }

    // ------------------------------------------------------------------------------------------------------ planning

    /** How records are partitioned: in memory or spilled, how many partitions, the pass-1 buffer per partition. */
    record Plan(boolean spill, int partitions, int bufferBytes, long memoryBudget, long residentBytes) {}

    static Plan plan(long records, int threads, long limit) {
        long raw = records * LogFormat.RECORD_SIZE;
        int pMem = (int) Math.min(MAX_PARTITIONS, Math.max(4L * threads, ceilDiv(records, 1_000_000)));
        long partWork = ceilDiv(records, pMem) * PartitionProcessor.WORK_BYTES_PER_RECORD * 3 / 2; // 1.5: hash skew
        long memNeed = raw + (long) threads * pMem * Partitions.Memory.CHUNK_BYTES + threads * partWork;
        if (memNeed <= limit) {
            return new Plan(false, pMem, 0, limit - raw, raw);
        }
        // spill: partitions small enough that `threads` of them fit in 80 % of the limit
        long perPartition =
                Math.max(1, (long) (limit * 0.8) / (threads * PartitionProcessor.WORK_BYTES_PER_RECORD * 3L / 2));
        int p = (int) Math.min(MAX_PARTITIONS, Math.max(threads, ceilDiv(records, perPartition)));
        long buf = (long) (limit * 0.1) / ((long) threads * p);
        int bufferBytes = (int) Math.max(32L * LogFormat.RECORD_SIZE, Math.min(256 * 1024, buf));
        bufferBytes -= bufferBytes % LogFormat.RECORD_SIZE;
        return new Plan(true, p, bufferBytes, limit, 0);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    // ------------------------------------------------------------------------------------------------------ running

    private ValidationResult validate(Evidence ev, Path home) {
        long t0 = System.nanoTime();
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(threads, daemonThreads());
        try {
            if (!ev.writesComplete()) {
                // Nothing can be checked: read the files only to say what they hold and where they are damaged.
                PartitionPass total = pass1(ev, null, pool, warnings);
                return incomplete(ev, total, warnings, (System.nanoTime() - t0) / 1e9);
            }
            long estimate = ev.estimatedRecords();
            long limit = memoryLimitBytes;
            long maxHeap = Runtime.getRuntime().maxMemory();
            if (maxHeap != Long.MAX_VALUE && limit > maxHeap * 0.8) {
                limit = (long) (maxHeap * 0.8);
                warnings.add(String.format(
                        "memory limit lowered to %,d MiB (80 %% of the JVM's maximum heap)", limit >> 20));
            }
            Plan plan = plan(estimate, threads, limit);
            Path spillDir = spillDirectory != null
                    ? spillDirectory
                    : home.resolve("validation-spill-" + ProcessHandle.current().pid() + "-"
                            + Long.toHexString(System.nanoTime()));
            try (Partitions parts = plan.spill()
                    ? new Partitions.Spill(plan.partitions(), spillDir, plan.bufferBytes())
                    : new Partitions.Memory(plan.partitions())) {
                return run(ev, parts, pool, plan, warnings, t0);
            }
        } finally {
            // let failed or cancelled tasks stop before their partitions are deleted
            pool.shutdownNow();
            try {
                pool.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Pass 1 over every source, on the pool: into {@code parts}, or only counting when it is null. */
    private PartitionPass pass1(Evidence ev, Partitions parts, ExecutorService pool, List<String> warnings) {
        AtomicInteger nextFile = new AtomicInteger();
        List<Evidence.Source> files = ev.sources;
        List<Callable<PartitionPass>> readers = new ArrayList<>();
        for (int t = 0; t < Math.min(threads, Math.max(1, files.size())); t++) {
            readers.add(() -> {
                PartitionPass sink = new PartitionPass(parts);
                for (int i; (i = nextFile.getAndIncrement()) < files.size(); ) {
                    sink.read(files.get(i), ev, warnings);
                }
                if (sink.appender != null) {
                    sink.appender.finish();
                }
                return sink;
            });
        }
        PartitionPass total = new PartitionPass(null);
        for (PartitionPass s : runAll(pool, readers)) {
            total.add(s);
        }
        return total;
    }

    /** The result when not every write is in the logs: no read checked, what was found, why. */
    private ValidationResult incomplete(Evidence ev, PartitionPass in, List<String> warnings, double seconds) {
        long unchecked = ev.manifest != null ? ev.readsExpected : in.reads;
        String reason = ev.writesMissing()
                + String.format(
                        Locale.ROOT,
                        "; no read can be checked, since each is "
                                + "judged against every write of its item (%,d reads%s not checked)",
                        unchecked,
                        ev.manifest == null ? " or more" : "");
        return new ValidationResult(
                records(ev, in),
                ValidationResult.Reads.none(unchecked),
                List.of(),
                List.of(),
                ValidationResult.Freshness.NONE,
                feeds(in, List.of(), 0),
                new ValidationResult.Work(0, false, 0, threads, seconds),
                new ValidationResult.Integrity(false, reason, ev.sortedProblems(), warnings));
    }

    private static ValidationResult.Records records(Evidence ev, PartitionPass in) {
        return new ValidationResult.Records(
                in.records, in.reads, in.records - in.reads, ev.sources.size(), in.partial, in.invalid);
    }

    private static ValidationResult.Feeds feeds(PartitionPass in, List<FreshnessBucket> curve, long curveReads) {
        return new ValidationResult.Feeds(in.feedReads, in.feedShares, in.feedChanges, curve, curveReads);
    }

    private ValidationResult run(
            Evidence ev, Partitions parts, ExecutorService pool, Plan plan, List<String> warnings, long t0) {
        // ---- pass 1: partition
        PartitionPass total = pass1(ev, parts, pool, warnings);
        parts.endOfInput();
        if (!ev.writesComplete()) {
            // reading found writes missing (a file cut or damaged before its last write): check nothing
            return incomplete(ev, total, warnings, (System.nanoTime() - t0) / 1e9);
        }
        long horizon = freshnessHorizonNanos > 0
                ? freshnessHorizonNanos
                : Math.max(1, total.maxEnd > total.minStart ? total.maxEnd - total.minStart : 1);
        FeedIndex feedIndex = null;
        if (feedState != null) {
            feedIndex = new FeedIndex(total.feedWrites, feedState, mode == ValueMode.FINAL);
        } else if (total.feedReads > 0) {
            warnings.add(String.format(
                    Locale.ROOT, "%,d feed reads skipped: no feed state was given to validation", total.feedReads));
        }
        if (total.feedReadsWithoutK > 0) {
            warnings.add(String.format(
                    Locale.ROOT,
                    "%,d feed reads were logged without their k: judged as if they " + "showed a full page",
                    total.feedReadsWithoutK));
        }
        final FeedIndex fi = feedIndex;

        // ---- pass 2: check partitions, largest first, within the memory budget
        Integer[] order = new Integer[parts.count];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(parts.records.get(b), parts.records.get(a)));
        int permits = (int) Math.max(1, Math.min(Integer.MAX_VALUE, plan.memoryBudget() >> 10));
        Semaphore memory = new Semaphore(permits);
        AtomicInteger nextPart = new AtomicInteger();
        List<Callable<PartitionProcessor>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(() -> {
                PartitionProcessor proc = new PartitionProcessor(
                        values, mode, listener, actionNames, sampleLimit, freshnessBuckets, horizon, fi);
                // the plan budgets `threads` partitions of 1.5 times the average size
                proc.retainRows(ceilDiv(parts.recordsTotal(), parts.count) * 3 / 2 * PartitionProcessor.ROW);
                for (int i; (i = nextPart.getAndIncrement()) < order.length; ) {
                    int p = order[i];
                    long need = parts.records.get(p) * PartitionProcessor.WORK_BYTES_PER_RECORD;
                    int cost = (int) Math.min(permits, (need >> 10) + 1);
                    memory.acquire(cost);
                    try {
                        proc.process(parts, p);
                    } finally {
                        memory.release(cost);
                    }
                }
                return proc;
            });
        }
        List<PartitionProcessor> done = runAll(pool, workers);
        return result(ev, total, done, horizon, plan, parts.spillBytes(), warnings, (System.nanoTime() - t0) / 1e9);
    }

    private ValidationResult result(
            Evidence ev,
            PartitionPass in,
            List<PartitionProcessor> procs,
            long horizon,
            Plan plan,
            long spillBytes,
            List<String> warnings,
            double seconds) {
        long checked = 0;
        long unpredictable = 0;
        long skipped = 0;
        long unwritten = 0;
        long noOverlap = 0;
        long freshTotal = 0;
        long freshBeyond = 0;
        long[] cpa = new long[256];
        long[] upa = new long[256];
        long[] spa = new long[256];
        long[] fr = new long[freshnessBuckets];
        long[] fv = new long[freshnessBuckets];
        long[] ffr = new long[freshnessBuckets];
        long[] ffv = new long[freshnessBuckets];
        long feedFreshTotal = 0;
        List<UnpredictableRead> samples = new ArrayList<>();
        for (PartitionProcessor p : procs) {
            checked += p.checked;
            unpredictable += p.unpredictable;
            skipped += p.skipped;
            unwritten += p.unwrittenReads;
            noOverlap += p.noOverlapReads;
            freshTotal += p.freshTotal;
            freshBeyond += p.freshBeyond;
            for (int a = 0; a < 256; a++) {
                cpa[a] += p.checkedPerAction[a];
                upa[a] += p.unpredictablePerAction[a];
                spa[a] += p.skippedPerAction[a];
            }
            for (int b = 0; b < freshnessBuckets; b++) {
                fr[b] += p.freshReads[b];
                fv[b] += p.freshValid[b];
                ffr[b] += p.feedFreshReads[b];
                ffv[b] += p.feedFreshValid[b];
            }
            feedFreshTotal += p.feedFreshTotal;
            samples.addAll(p.samples);
        }
        samples.sort(PartitionProcessor.SAMPLE_ORDER);
        if (samples.size() > sampleLimit) {
            samples = samples.subList(0, sampleLimit);
        }
        List<ActionStats> perAction = new ArrayList<>();
        for (int a = 0; a < 256; a++) {
            if (cpa[a] + spa[a] > 0) {
                perAction.add(new ActionStats(
                        a, PartitionProcessor.actionName(actionNames, a), cpa[a], upa[a], spa[a], pct(upa[a], cpa[a])));
            }
        }
        List<FreshnessBucket> curve = freshTotal > 0 ? curve(fr, fv, horizon) : List.of();
        List<FreshnessBucket> feedCurve = feedFreshTotal > 0 ? curve(ffr, ffv, horizon) : List.of();
        List<LogProblem> problems = ev.sortedProblems();
        long unchecked = ev.manifest != null ? Math.max(0, ev.readsExpected - in.reads) : 0;
        String reason = null;
        if (!problems.isEmpty()) {
            reason = problems.get(0)
                    + String.format(
                            Locale.ROOT,
                            "; every write is in the logs, so the %,d reads "
                                    + "that remain were checked%s, but %,d could not be",
                            checked,
                            unpredictable > 0
                                    ? String.format(Locale.ROOT, " (%,d of them are unpredictable)", unpredictable)
                                    : "",
                            unchecked);
        }
        ValidationResult.Reads reads = new ValidationResult.Reads(
                checked, unpredictable, pct(unpredictable, checked), skipped, unwritten, noOverlap, unchecked);
        return new ValidationResult(
                records(ev, in),
                reads,
                perAction,
                samples,
                new ValidationResult.Freshness(curve, horizon / 1e6, freshTotal, freshBeyond),
                feeds(in, feedCurve, feedFreshTotal),
                new ValidationResult.Work(plan.partitions(), plan.spill(), spillBytes, threads, seconds),
                new ValidationResult.Integrity(problems.isEmpty(), reason, problems, warnings));
    }

    private List<FreshnessBucket> curve(long[] fr, long[] fv, long horizon) {
        List<FreshnessBucket> curve = new ArrayList<>();
        long cr = 0;
        long cv = 0;
        for (int b = 0; b < freshnessBuckets; b++) {
            cr += fr[b];
            cv += fv[b];
            double from = (double) horizon * b / freshnessBuckets / 1e6;
            double to = (double) horizon * (b + 1) / freshnessBuckets / 1e6;
            curve.add(new FreshnessBucket(
                    from,
                    to,
                    fr[b],
                    fv[b],
                    fr[b] == 0 ? Double.NaN : (double) fv[b] / fr[b],
                    cr,
                    cv,
                    cr == 0 ? Double.NaN : (double) cv / cr));
        }
        return curve;
    }

    private static double pct(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    private static <T> List<T> runAll(ExecutorService pool, List<Callable<T>> tasks) {
        List<Future<T>> futures = new ArrayList<>();
        for (Callable<T> t : tasks) {
            futures.add(pool.submit(t));
        }
        List<T> out = new ArrayList<>();
        try {
            for (Future<T> f : futures) {
                out.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            futures.forEach(f -> f.cancel(true));
            throw new IllegalStateException("validation interrupted", e);
        } catch (ExecutionException e) {
            futures.forEach(f -> f.cancel(true));
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("validation failed: " + c, c);
        }
        return out;
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "bg-validation-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }
}
