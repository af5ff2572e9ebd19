package org.bgbench.measurement;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.resource.NodeReading;
import org.bgbench.measurement.resource.NodeUse;
import org.bgbench.measurement.resource.ResourceMonitor;
import org.bgbench.measurement.resource.ResourceSnapshot;
import org.bgbench.measurement.resource.ResourceUse;
import org.bgbench.model.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The measurements of one run. Emulator threads record through {@link #recorder(int)} (lock-free, allocation-free);
 * everything else — sampling, phase changes, results — runs on the sampling side under this object's lock and never
 * blocks a recorder.
 *
 * <p>Life cycle: build, optionally {@link #startSampler()} (one sample per period on a platform thread; warm-up
 * samples are flagged), warm up, {@link #startMeasuring()} (everything recorded before is discarded),
 * run, {@link #stopMeasuring()} (takes the last, partial interval), {@link #result(RunContext)}, {@link #close()}.
 * Instead of the sampler thread the emulator may call {@link #sample()} itself.
 *
 * <p>Kinds are BG's {@link Kind}s by {@link Kind#index()}: every action, then every session; each is reported under its
 * {@link Kind#code()}.
 *
 * <p>Memory: stripes × kinds × ~24.6 K longs (the 3-digit, 1 µs–1 h histogram layout) plus three snapshots of
 * kinds × 24.6 K longs, independent of the number of threads; about 26 MB for 4 stripes and 19 kinds.
 */
public final class Measurements implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Measurements.class);

    private enum Phase {
        WARMUP,
        MEASURING,
        STOPPED
    }

    /**
     * The latencies of a kind that did not run in an interval: one shared empty histogram, never written (samples'
     * histograms are read-only to their receivers, see {@link KindCounts}).
     */
    private final List<String> codes;

    private final int threads;
    private final long betaNanos;
    private final long periodNanos;
    /** The store runs in BG's process: BG's CPU includes its work (no warning of a saturated BG CPU). */
    private final boolean bgCpuIncludesStore;

    private final Stripes stripes;
    private final Recorder[] recorders;
    private final ResourceMonitor monitor;
    private final boolean ownMonitor;
    private final List<Consumer<SecondSample>> listeners = new CopyOnWriteArrayList<>();

    // Sampling side, guarded by this.
    private Phase phase = Phase.WARMUP;
    private long[] previous;
    private long[] current;
    private long[] baseline;
    private final long createdNanos;
    private long phaseStartNanos;
    private long lastSampleNanos;
    private int secondInPhase;
    private double warmupSeconds;
    private Instant measureStart;
    private ResourceSnapshot baselineResources;
    private ResourceSnapshot lastResources;
    private final List<SeriesPoint> series = new ArrayList<>();
    /** Per measured second, each node's figures (as in {@link ResourceUse#nodes()}). */
    private final List<List<NodeUse>> nodeSeries = new ArrayList<>();

    private ScheduledExecutorService sampler;
    private ScheduledFuture<?> samplerTask;
    private long samplerGeneration;
    /** Executions still waiting when the period ended, per kind: their waits, and how many (null until one). */
    private Histogram[] stuckLatencies;

    private long[] stuckCounts;
    private long longestStuckNanos;
    /** Seconds of the series in which nothing returned while a call was waiting on the store throughout. */
    private final List<Integer> stalledSeconds = new ArrayList<>();
    /** Whether a call has been waiting on the store since a given {@link System#nanoTime()}; null: not watched. */
    private volatile LongPredicate waitingSince;
    /** Seconds of the series in which the store failed every call, each with the failure's words. */
    private final List<Stalls.Refusal> refusals = new ArrayList<>();
    /** Whether every call has failed since a given {@link System#nanoTime()}; null: not watched. */
    private volatile LongPredicate failingSince;

    private volatile Supplier<String> lastFailure;

    Measurements(MeasurementsBuilder b) {
        this.codes = Kind.all().stream().map(Kind::code).toList();
        this.threads = b.threads;
        this.betaNanos = b.betaNanos;
        this.periodNanos = b.periodNanos;
        this.bgCpuIncludesStore = b.bgCpuIncludesStore;
        this.stripes = new Stripes(Latencies.LAYOUT, codes.size(), b.stripes, betaNanos);
        this.recorders = new Recorder[b.stripes];
        for (int s = 0; s < recorders.length; s++) {
            recorders[s] = new Recorder(stripes, s);
        }
        this.ownMonitor = b.monitor == null;
        this.monitor =
                b.monitor != null ? b.monitor : ResourceMonitor.create(b.storePids, b.storeHosts, b.storePidFinder);
        this.listeners.addAll(b.listeners);
        this.previous = new long[stripes.snapshotLength];
        this.current = new long[stripes.snapshotLength];
        this.createdNanos = System.nanoTime();
        this.phaseStartNanos = createdNanos;
        this.lastSampleNanos = createdNanos;
        this.lastResources = monitor.snapshot();
    }

    public static MeasurementsBuilder builder() {
        return new MeasurementsBuilder();
    }

    // ---------------------------------------------------------------- recording side

    /**
     * The recorder for an emulator thread. Threads whose indexes are equal modulo the stripe count share one
     * instance; any number of threads may use the same recorder concurrently.
     */
    public Recorder recorder(int threadIndex) {
        if (threadIndex < 0) {
            throw new IllegalArgumentException("negative thread index " + threadIndex);
        }
        return recorders[threadIndex & (recorders.length - 1)];
    }

    /** Action codes followed by session codes; the index is the {@link Kind#index()}. */
    public List<String> kindCodes() {
        return codes;
    }

    public int kindCount() {
        return codes.size();
    }

    public int stripeCount() {
        return recorders.length;
    }

    public long betaNanos() {
        return betaNanos;
    }

    /** Bytes of recording state (the stripes); the sampling side holds three more snapshots of one stripe's size. */
    public long recordingBytes() {
        return stripes.bytes();
    }

    public ResourceMonitor resourceMonitor() {
        return monitor;
    }

    // ---------------------------------------------------------------- sampling side

    /**
     * Watches for stalled seconds: {@code waitingSince} tells whether some call has been waiting on the store since a
     * given {@link System#nanoTime()} or longer (the emulator's in-flight table). A measured interval in which no
     * action returned (completed or failed) while a call was waiting throughout it, and for longer than β, is recorded
     * in {@link #stalledSeconds()}.
     */
    public void watchWaiting(LongPredicate waitingSince) {
        this.waitingSince = waitingSince;
    }

    /**
     * Watches for refused seconds: {@code failingSince} tells whether every store call that returned since some
     * {@link System#nanoTime()} failed (none succeeded since), {@code lastFailure} gives the last failure's words. A
     * measured interval in which no action completed, actions failed, and every call had been failing since its start
     * is recorded in {@link #refusals()}: a store that fails every call is as stopped as one that answers none.
     */
    public void watchFailures(LongPredicate failingSince, Supplier<String> lastFailure) {
        this.lastFailure = lastFailure;
        this.failingSince = failingSince;
    }

    /** How long an execution must have waited when the period ended to count as stuck: max(β, the sample period). */
    public long stuckThresholdNanos() {
        return Math.max(betaNanos, periodNanos);
    }

    /**
     * An execution of {@code kind} that was still waiting on the store when the measured period ended, after
     * {@code waitedNanos}. If it waited longer than {@link #stuckThresholdNanos()} it is stuck: its wait goes into the
     * kind's latencies as a lower bound (beyond β), and the kind's {@code stuck} count. A shorter wait is the usual
     * boundary of a measured period (the call would have returned in it or just after) and is left out, as a call
     * that returns after the period ends is. Call after {@link #stopMeasuring()}; returns whether it was stuck.
     */
    public synchronized boolean stillWaiting(int kind, long waitedNanos) {
        if (phase != Phase.STOPPED) {
            throw new IllegalStateException("calls still waiting are taken when the measured period has ended");
        }
        if (waitedNanos <= stuckThresholdNanos()) {
            return false;
        }
        if (stuckLatencies == null) {
            stuckLatencies = new Histogram[codes.size()];
            stuckCounts = new long[codes.size()];
        }
        if (stuckLatencies[kind] == null) {
            stuckLatencies[kind] = Latencies.newHistogram();
        }
        stuckLatencies[kind].recordValue(Math.min(waitedNanos, stuckLatencies[kind].getHighestTrackableValue()));
        stuckCounts[kind]++;
        longestStuckNanos = Math.max(longestStuckNanos, waitedNanos);
        return true;
    }

    /** The longest wait of a stuck execution, ns; 0 when none was stuck. */
    public synchronized long longestStuckNanos() {
        return longestStuckNanos;
    }

    /** The {@link SeriesPoint#second()}s of the measured period that stalled (see {@link #watchWaiting}). */
    public synchronized List<Integer> stalledSeconds() {
        return List.copyOf(stalledSeconds);
    }

    /** The seconds of the measured period in which the store failed every call (see {@link #watchFailures}). */
    public synchronized List<Stalls.Refusal> refusals() {
        return List.copyOf(refusals);
    }

    public void addListener(Consumer<SecondSample> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<SecondSample> listener) {
        listeners.remove(listener);
    }

    /** Starts the platform sampling thread: one {@link #sample()} per period, aligned to the measured start. */
    public synchronized void startSampler() {
        if (phase == Phase.STOPPED) {
            throw new IllegalStateException("measurements already stopped");
        }
        if (sampler == null) {
            sampler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "bg-measurement-sampler");
                t.setDaemon(true);
                return t;
            });
            scheduleSampler();
        }
    }

    private void scheduleSampler() {
        if (samplerTask != null) {
            samplerTask.cancel(false);
        }
        // A tick already queued under an older generation finds the number changed and does nothing.
        long generation = ++samplerGeneration;
        samplerTask =
                sampler.scheduleAtFixedRate(() -> tick(generation), periodNanos, periodNanos, TimeUnit.NANOSECONDS);
    }

    private void tick(long generation) {
        try {
            synchronized (this) {
                if (generation == samplerGeneration && phase != Phase.STOPPED) {
                    takeSample();
                }
            }
        } catch (Throwable t) {
            // A throwing task would silently end the fixed-rate schedule; log and keep sampling.
            LOG.error("measurement sample failed", t);
        }
    }

    /**
     * Ends the warm-up: the measured period starts now and nothing recorded before counts. The interval since the
     * last warm-up sample is dropped and the sampler realigns its seconds to this instant.
     */
    public synchronized void startMeasuring() {
        if (phase != Phase.WARMUP) {
            throw new IllegalStateException("measuring already started");
        }
        long now = System.nanoTime();
        stripes.sumInto(previous);
        baseline = previous.clone();
        baselineResources = monitor.snapshot();
        lastResources = baselineResources;
        measureStart = Instant.now();
        warmupSeconds = (now - createdNanos) / 1e9;
        phaseStartNanos = now;
        lastSampleNanos = now;
        secondInPhase = 0;
        phase = Phase.MEASURING;
        if (sampler != null) {
            scheduleSampler();
        }
    }

    /** Takes one interval sample now (from the previous sample to now) and hands it to the listeners. */
    public synchronized SecondSample sample() {
        if (phase == Phase.STOPPED) {
            throw new IllegalStateException("measurements already stopped");
        }
        return takeSample();
    }

    /**
     * Ends the measured period: takes the last (usually partial) interval, so the series adds up to the totals, and
     * stops the sampler thread. Recording afterwards is harmless and ignored.
     */
    public synchronized void stopMeasuring() {
        if (phase != Phase.MEASURING) {
            throw new IllegalStateException(phase == Phase.WARMUP ? "measuring not started" : "already stopped");
        }
        takeSample();
        phase = Phase.STOPPED;
        stopSampler();
    }

    public synchronized boolean isMeasuring() {
        return phase == Phase.MEASURING;
    }

    /** The per-second series of the measured period so far. */
    public synchronized List<SeriesPoint> series() {
        return List.copyOf(series);
    }

    private SecondSample takeSample() {
        stripes.sumInto(current);
        // The interval ends when the scan of the stripes has finished: it includes everything the scan saw.
        long now = System.nanoTime();
        ResourceSnapshot resources = monitor.snapshot();
        Interval interval = Interval.between(stripes, codes, current, previous);
        ResourceUse use = ResourceMonitor.between(lastResources, resources);
        double seconds = (now - lastSampleNanos) / 1e9;
        Histogram h = interval.actionLatencies();
        boolean any = h.getTotalCount() > 0;
        secondInPhase++;
        SeriesPoint point = SeriesPoint.builder()
                .second(secondInPhase)
                .elapsedS((now - phaseStartNanos) / 1e9)
                .intervalS(seconds)
                .actions(h.getTotalCount())
                .throughput(seconds > 0 ? h.getTotalCount() / seconds : 0)
                .sessions(interval.sessions())
                .errors(interval.failures().errors())
                .noops(interval.failures().noops())
                .p50Ms(any ? Latencies.millis(h.getValueAtPercentile(50)) : null)
                .p95Ms(any ? Latencies.millis(h.getValueAtPercentile(95)) : null)
                .p99Ms(any ? Latencies.millis(h.getValueAtPercentile(99)) : null)
                .maxMs(any ? Latencies.millis(h.getMaxValue()) : null)
                .withinBetaPct(any ? 100.0 * interval.actionsWithinBeta() / h.getTotalCount() : null)
                .bgWaitMs(interval.waits().nanos() / 1e6)
                .bgCores(known(use.bgCores()))
                .storeCores(known(use.storeCores()))
                .machineCores(known(use.machineCores()))
                .build();
        long[] swap = previous;
        previous = current;
        current = swap;
        long intervalStart = lastSampleNanos;
        lastSampleNanos = now;
        lastResources = resources;
        boolean warmup = phase == Phase.WARMUP;
        if (!warmup) {
            series.add(point);
            nodeSeries.add(use.nodes());
            if (stalled(interval, intervalStart, now)) {
                stalledSeconds.add(point.second());
            } else if (refused(interval, intervalStart, now)) {
                Supplier<String> words = lastFailure;
                refusals.add(new Stalls.Refusal(point.second(), words == null ? null : words.get()));
            }
        }
        SecondSample sample = new SecondSample(
                warmup, point, interval.kinds(), h, interval.waits().nanos(), use);
        for (Consumer<SecondSample> listener : listeners) {
            try {
                listener.accept(sample);
            } catch (RuntimeException e) {
                LOG.warn("measurement listener failed", e);
            }
        }
        return sample;
    }

    /**
     * Whether the interval that ends {@code now} stalled: it was (nearly) a whole period long, no action returned in
     * it, and a call had been waiting on the store since its start and for longer than β.
     */
    private boolean stalled(Interval interval, long start, long now) {
        LongPredicate w = waitingSince;
        long length = now - start;
        if (w == null
                || interval.actionLatencies().getTotalCount() > 0
                || interval.failures().actionErrors() > 0
                || length < periodNanos * 9 / 10) {
            return false;
        }
        return w.test(Math.min(start, now - betaNanos));
    }

    /**
     * Whether the store failed every call in the interval that ends {@code now}: it was (nearly) a whole period long,
     * no action completed in it, some failed, and every call that returned since its start failed.
     */
    private boolean refused(Interval interval, long start, long now) {
        LongPredicate f = failingSince;
        if (f == null
                || interval.actionLatencies().getTotalCount() > 0
                || interval.failures().actionErrors() == 0
                || now - start < periodNanos * 9 / 10) {
            return false;
        }
        return f.test(start);
    }

    /**
     * The result so far. While measuring it covers the measured period up to the last sample (so a result rewritten
     * every few seconds stays consistent with its own series) and is marked partial; after {@link #stopMeasuring()}
     * it is final. Before {@link #startMeasuring()} it is empty.
     */
    public synchronized RunResult result(RunContext context) {
        boolean started = phase != Phase.WARMUP;
        long[] to = previous;
        long[] from = started ? baseline : previous;
        Interval totals = Interval.between(stripes, codes, to, from);
        double seconds = started ? (lastSampleNanos - phaseStartNanos) / 1e9 : 0;
        Instant start = started ? measureStart : Instant.now();
        Instant end = start.plusNanos(started ? lastSampleNanos - phaseStartNanos : 0);

        Map<String, KindResult> actions = new LinkedHashMap<>();
        Map<String, KindResult> sessions = new LinkedHashMap<>();
        long actionNoops = 0;
        long actionErrors = 0;
        long actionStuck = 0;
        Histogram actionLatencies = totals.actionLatencies();
        for (int k = 0; k < codes.size(); k++) {
            KindCounts counts = totals.kinds().get(k);
            if (stuckLatencies != null && stuckLatencies[k] != null) {
                // The kind's histogram is its own dense copy (or the shared empty one, which gets a copy): the stuck
                // waits join it as lower bounds.
                Histogram own = counts.latencies() == Interval.NOTHING ? Latencies.newHistogram() : counts.latencies();
                own.add(stuckLatencies[k]);
                counts = counts.withStuck(own, stuckCounts[k]);
                if (Kind.isAction(k)) {
                    actionLatencies.add(stuckLatencies[k]);
                }
            }
            if (Kind.isAction(k)) {
                actions.put(codes.get(k), KindResult.of(counts, seconds));
                actionNoops += counts.noops();
                actionErrors += counts.errors();
                actionStuck += counts.stuck();
            } else {
                sessions.put(codes.get(k), KindResult.of(counts, seconds));
            }
        }
        KindResult total = KindResult.of(
                new KindCounts(
                        "total",
                        actionLatencies,
                        totals.actionsWithinBeta(),
                        actionStuck,
                        new KindCounts.Outcomes(
                                actionNoops, actionErrors, totals.failures().errorNanos()),
                        new KindCounts.Cpu(
                                totals.actionCpu().nanos(), totals.actionCpu().samples())),
                seconds);

        ResourceUse use = started
                ? ResourceMonitor.between(baselineResources, lastResources)
                : ResourceMonitor.between(lastResources, lastResources);
        Double bgUsPerAction = total.count() > 0 ? known(use.bgCpuSeconds() * 1e6 / total.count()) : null;
        CpuResult cpu = CpuResult.builder()
                .bgCores(known(use.bgCores()))
                .bgUsPerAction(bgUsPerAction)
                .storeCores(known(use.storeCores()))
                .machineCores(known(use.machineCores()))
                .machineIowaitCores(known(use.machineIowaitCores()))
                .bgCpuS(known(use.bgCpuSeconds()))
                .storeCpuS(known(use.storeCpuSeconds()))
                .bgAvailableCores(Runtime.getRuntime().availableProcessors())
                .machineCpus(use.machineCpus())
                .storePids(monitor.storePids())
                .storeProcesses(lastResources.storeProcesses())
                .bgPeakCores(peak(series, SeriesPoint::bgCores))
                .storePeakCores(peak(series, SeriesPoint::storeCores))
                .machinePeakCores(peak(series, SeriesPoint::machineCores))
                .bgOutsideUsPerAction(CpuResult.outsideUsPerAction(bgUsPerAction, actions.values()))
                .build();

        double actionTimeMs = (total.meanMs() == null ? 0 : total.meanMs() * (total.count() + total.stuck()))
                + totals.failures().errorNanos() / 1e6;
        double waitMs = totals.waits().nanos() / 1e6;
        BgWaitResult bgWait = new BgWaitResult(
                waitMs, totals.waits().count(), actionTimeMs, actionTimeMs > 0 ? waitMs / actionTimeMs : null);

        RunResult result = new RunResult(
                new RunResult.Header(RunResult.FORMAT, phase != Phase.STOPPED, start.toString(), end.toString()),
                new RunResult.Rate(
                        total.throughput(),
                        threads,
                        seconds,
                        started ? warmupSeconds : (System.nanoTime() - createdNanos) / 1e9,
                        betaNanos / 1e6),
                new RunResult.Figures(actions, sessions, total, List.copyOf(series), HistogramConfig.current()),
                new RunResult.Environment(cpu, bgWait, nodes(), List.of()),
                context,
                null,
                null);
        for (String warning : Bottlenecks.warnings(result, periodNanos / 1e9, bgCpuIncludesStore)) {
            result = result.withWarning(warning);
        }
        return result;
    }

    /** Each node's figures over the measured seconds so far, in the order of {@link ResourceUse#nodes()}. */
    private List<NodeResult> nodes() {
        List<NodeResult> out = new ArrayList<>();
        List<NodeReading> names = lastResources.nodes();
        for (int i = 0; i < names.size(); i++) {
            List<NodeUse> perSecond = new ArrayList<>(nodeSeries.size());
            for (List<NodeUse> second : nodeSeries) {
                if (i < second.size()) {
                    perSecond.add(second.get(i));
                }
            }
            out.add(NodeResult.of(names.get(i).name(), names.get(i).role(), perSecond));
        }
        return out;
    }

    /** {@link #result(RunContext)} without descriptive sections. */
    public RunResult result() {
        return result(RunContext.empty());
    }

    private static Double peak(List<SeriesPoint> points, Function<SeriesPoint, Double> field) {
        Double max = null;
        for (SeriesPoint p : points) {
            Double v = field.apply(p);
            if (v != null && (max == null || v > max)) {
                max = v;
            }
        }
        return max;
    }

    private static Double known(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private void stopSampler() {
        if (sampler != null) {
            sampler.shutdownNow();
            sampler = null;
            samplerTask = null;
        }
    }

    /** Stops the sampler thread; the measurements stay readable. */
    @Override
    public synchronized void close() {
        stopSampler();
        if (ownMonitor) {
            monitor.close();
        }
    }
}
