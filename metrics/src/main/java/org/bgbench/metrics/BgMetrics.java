package org.bgbench.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SecondSample;
import org.bgbench.model.Action;
import org.bgbench.runner.observe.ExperimentInfo;
import org.bgbench.runner.observe.ExperimentObserver;

/**
 * Every experiment of this process as Prometheus metrics (docs/metrics.md): per kind (action or session) and store,
 * counters of completed executions, errors, no-ops, stuck executions and executions within β, and a latency histogram
 * with classic buckets folded from the per-second HdrHistograms; per store, gauges of the experiment in progress.
 * <p>
 * Counters and the histogram count measured seconds only, as the result does: warm-up seconds show in
 * {@code bg_warmup} and the throughput gauge, never in a counter. Stuck executions are known only when the measured
 * period has ended, so {@code bg_stuck_total} grows when an experiment finishes, and they are not in the histogram
 * (their latency is only a lower bound). The per-kind figures are one consistent snapshot: a scrape never sees a
 * second half-added.
 */
public final class BgMetrics implements ExperimentObserver, MultiCollector {
    private static final Set<String> ACTIONS =
            Arrays.stream(Action.values()).map(Action::code).collect(Collectors.toUnmodifiableSet());

    private final String worker;
    /** Per (store, kind code), in order of appearance; guarded by this. */
    private final Map<List<String>, KindTotals> kinds = new LinkedHashMap<>();

    private final Gauge threads;
    private final Gauge running;
    private final Gauge warmup;
    private final Gauge throughput;
    private final Gauge beta;
    private final Gauge unpredictableReads;
    private final Gauge unpredictableRatio;
    private final Gauge readsChecked;
    private final Counter experiments;
    private final Counter experimentsFinished;

    /** Metrics labelled {@code worker=worker}, registered with {@code registry}. */
    public BgMetrics(String worker, PrometheusRegistry registry) {
        this.worker = worker;
        threads = gauge(registry, "bg_threads", "T: emulated members of the experiment in progress (or the last)");
        running = gauge(registry, "bg_running", "1 while an experiment runs (warm-up included), else 0");
        warmup = gauge(
                registry,
                "bg_warmup",
                "1 while the experiment is warming up (its seconds are not counted), " + "else 0");
        throughput = gauge(
                registry,
                "bg_throughput_actions_per_second",
                "Actions completed per second in the last sampled second (warm-up included: see bg_warmup)");
        beta = Gauge.builder()
                .name("bg_beta_seconds")
                .unit(Unit.SECONDS)
                .help("β of the SLA of the experiment in progress (or the last)")
                .labelNames("store", "worker")
                .register(registry);
        unpredictableReads = gauge(
                registry,
                "bg_unpredictable_reads",
                "Reads that observed unpredictable data in the last validated experiment");
        unpredictableRatio = Gauge.builder()
                .name("bg_unpredictable_reads_ratio")
                .unit(Unit.RATIO)
                .help("Unpredictable reads / reads checked in the last validated experiment (the result's pct / 100)")
                .labelNames("store", "worker")
                .register(registry);
        readsChecked = gauge(registry, "bg_reads_checked", "Reads validation checked in the last validated experiment");
        experiments = Counter.builder()
                .name("bg_experiments")
                .help("Experiments started")
                .labelNames("store", "worker")
                .register(registry);
        experimentsFinished = Counter.builder()
                .name("bg_experiments_finished")
                .help("Experiments that finished with a result")
                .labelNames("store", "worker")
                .register(registry);
        registry.register(this);
    }

    private static Gauge gauge(PrometheusRegistry registry, String name, String help) {
        return Gauge.builder()
                .name(name)
                .help(help)
                .labelNames("store", "worker")
                .register(registry);
    }

    /** The {@code worker} label of every metric. */
    public String worker() {
        return worker;
    }

    @Override
    public void started(ExperimentInfo info) {
        if (info.merged()) {
            return; // a coordinator's merged view: the workers export their own parts
        }
        String s = info.store();
        threads.labelValues(s, worker).set(info.threads());
        running.labelValues(s, worker).set(1);
        warmup.labelValues(s, worker).set(info.warmupS() > 0 ? 1 : 0);
        beta.labelValues(s, worker).set(info.betaMs() / 1e3);
        throughput.labelValues(s, worker).set(0);
        experiments.labelValues(s, worker).inc();
    }

    @Override
    public void second(ExperimentInfo info, SecondSample sample) {
        if (info.merged()) {
            return;
        }
        String s = info.store();
        running.labelValues(s, worker).set(1);
        warmup.labelValues(s, worker).set(sample.warmup() ? 1 : 0);
        throughput.labelValues(s, worker).set(sample.point().throughput());
        synchronized (this) {
            for (KindCounts k : sample.kinds()) {
                // Every kind has its series from the first (warm-up) second on, so rate() sees it start at 0.
                KindTotals t = totals(s, k.code());
                if (!sample.warmup()) {
                    t.add(k);
                }
            }
        }
    }

    @Override
    public void finished(ExperimentInfo info, RunResult result) {
        if (info.merged()) {
            return;
        }
        String s = info.store();
        synchronized (this) {
            addStuck(s, result.actions());
            addStuck(s, result.sessions());
        }
        running.labelValues(s, worker).set(0);
        warmup.labelValues(s, worker).set(0);
        experimentsFinished.labelValues(s, worker).inc();
        if (result.unpredictable() != null) {
            unpredictableReads.labelValues(s, worker).set(result.unpredictable().unpredictableReads());
            unpredictableRatio.labelValues(s, worker).set(result.unpredictable().pct() / 100);
            readsChecked.labelValues(s, worker).set(result.unpredictable().readsChecked());
        }
    }

    private void addStuck(String store, Map<String, KindResult> results) {
        results.forEach((code, r) -> {
            if (r.stuck() > 0) {
                totals(store, code).stuck += r.stuck();
            }
        });
    }

    private KindTotals totals(String store, String code) {
        return kinds.computeIfAbsent(List.of(store, code), k -> new KindTotals());
    }

    @Override
    public synchronized MetricSnapshots collect() {
        List<Labels> labels = new ArrayList<>();
        List<KindTotals> totals = new ArrayList<>();
        kinds.forEach((key, t) -> {
            String code = key.get(1);
            labels.add(Labels.of(
                    "action",
                    code,
                    "kind",
                    ACTIONS.contains(code) ? "action" : "session",
                    "store",
                    key.get(0),
                    "worker",
                    worker));
            totals.add(t);
        });
        HistogramSnapshot.Builder latency = HistogramSnapshot.builder()
                .name("bg_latency_seconds")
                .unit(Unit.SECONDS)
                .help("Latency of completed executions in measured seconds (stuck ones excluded), by kind");
        for (int i = 0; i < totals.size(); i++) {
            KindTotals t = totals.get(i);
            // The model takes each bucket's own count; its writers print them cumulative (le="…" counts all below).
            double[] bounds = Arrays.copyOf(LatencyBuckets.BOUNDS_SECONDS, t.buckets.length);
            bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
            latency.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                    .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, t.buckets.clone()))
                    .sum(t.sumNanos / 1e9)
                    .labels(labels.get(i))
                    .build());
        }
        return MetricSnapshots.of(
                counter(
                        "bg_completed",
                        "Completed executions (errors, no-ops and stuck ones excluded) in measured "
                                + "seconds, by kind",
                        labels,
                        totals,
                        t -> t.completed),
                counter(
                        "bg_errors",
                        "Executions that failed in measured seconds, by kind",
                        labels,
                        totals,
                        t -> t.errors),
                counter(
                        "bg_noops",
                        "Executions skipped for want of a valid target in measured seconds, by kind",
                        labels,
                        totals,
                        t -> t.noops),
                counter(
                        "bg_stuck",
                        "Executions still waiting on the store when a measured period ended, by kind "
                                + "(counted when the experiment finishes)",
                        labels,
                        totals,
                        t -> t.stuck),
                counter(
                        "bg_within_beta",
                        "Completed executions whose latency was at most β, by kind",
                        labels,
                        totals,
                        t -> t.withinBeta),
                latency.build());
    }

    private static CounterSnapshot counter(
            String name,
            String help,
            List<Labels> labels,
            List<KindTotals> totals,
            ToDoubleFunction<KindTotals> value) {
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
        for (int i = 0; i < totals.size(); i++) {
            b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                    .value(value.applyAsDouble(totals.get(i)))
                    .labels(labels.get(i))
                    .build());
        }
        return b.build();
    }

    /** What one kind of one store has added up to. */
    private static final class KindTotals {
        long completed;
        long errors;
        long noops;
        long stuck;
        long withinBeta;
        double sumNanos;
        final long[] buckets = new long[LatencyBuckets.BOUNDS_SECONDS.length + 1];

        void add(KindCounts k) {
            completed += k.count();
            errors += k.errors();
            noops += k.noops();
            stuck += k.stuck();
            withinBeta += k.withinBeta();
            sumNanos += LatencyBuckets.addTo(k.latencies(), buckets);
        }
    }
}
