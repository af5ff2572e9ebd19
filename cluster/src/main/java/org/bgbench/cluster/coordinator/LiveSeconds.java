package org.bgbench.cluster.coordinator;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SecondSample;
import org.bgbench.measurement.SeriesPoint;
import org.bgbench.measurement.merge.ResultMerger;
import org.bgbench.measurement.report.IntervalLog;
import org.bgbench.model.Kind;
import org.bgbench.runner.observe.ExperimentInfo;
import org.bgbench.runner.observe.Observers;

/**
 * The seconds the workers stream during a run, merged as soon as every worker with threads reported one: into the
 * merged series, a progress line, the interval log ({@code X.hlog}, may be null) and this process's observers (the
 * deck's live file), per kind too. Thread-safe: the workers' streams report on their own threads.
 */
final class LiveSeconds {
    /** One worker's second as it arrived. */
    private record Part(SeriesPoint point, Histogram actions, Map<String, Messages.KindSecond> kinds) {}

    private final int workers;
    private final long betaNs;
    private final IntervalLog hlog;
    private final ExperimentInfo info;
    private final PrintWriter progress;
    private final Map<Integer, List<Part>> pending = new TreeMap<>();
    private final List<SeriesPoint> series = new ArrayList<>();

    /** @param progress where a line per merged second goes, or null */
    LiveSeconds(int workers, long betaNs, IntervalLog hlog, ExperimentInfo info, PrintWriter progress) {
        this.workers = workers;
        this.betaNs = betaNs;
        this.hlog = hlog;
        this.info = info;
        this.progress = progress;
    }

    /** A second one worker streamed; warm-up seconds are not merged. */
    void add(Messages.Second sec) {
        if (sec.warmup()) {
            return;
        }
        SeriesPoint p = sec.point();
        Part part = new Part(p, Latencies.decode(sec.hdr()), sec.kinds() == null ? Map.of() : sec.kinds());
        synchronized (this) {
            List<Part> got = pending.computeIfAbsent(p.second(), s -> new ArrayList<>());
            got.add(part);
            if (got.size() < workers) {
                return;
            }
            SeriesPoint merged = mergeSecond(got);
            series.add(merged);
            pending.remove(p.second());
            log(merged, got, true);
            if (progress != null) {
                progress.printf(
                        Locale.ROOT,
                        "  %4ds %,10.0f actions/s  p95 %s ms  ≤β %s %%  errors %d  (%d workers)%n",
                        merged.second(),
                        merged.throughput(),
                        fmt(merged.p95Ms()),
                        fmt(merged.withinBetaPct()),
                        merged.errors(),
                        workers);
                progress.flush();
            }
        }
    }

    /** The seconds every worker reported, merged, in the order they were completed. */
    synchronized List<SeriesPoint> series() {
        return List.copyOf(series);
    }

    /**
     * Writes the seconds not every worker reported (a worker's last, or one that failed) into the log, which has them
     * after the merged ones (they are in the workers' results, not in the merged series), and ends the log with the
     * merged result's figures; without a log the result is returned as it is.
     */
    synchronized RunResult finish(RunResult merged) {
        if (hlog == null) {
            return merged;
        }
        for (List<Part> got : pending.values()) {
            log(mergeSecond(got), got, false);
        }
        pending.clear();
        return hlog.finish(merged);
    }

    /** Closes the log with the seconds merged so far (the run failed). */
    synchronized void abandon() {
        if (hlog != null) {
            hlog.close();
        }
    }

    private SeriesPoint mergeSecond(List<Part> got) {
        return ResultMerger.mergeSecond(
                got.stream().map(Part::point).toList(),
                got.stream().map(Part::actions).toList(),
                betaNs);
    }

    /**
     * One merged second: into the interval log (per kind the sum of the workers' histograms, and all actions), and
     * (when {@code observed}) to this process's observers with its per-kind figures summed over the workers.
     */
    private void log(SeriesPoint merged, List<Part> got, boolean observed) {
        Map<String, Histogram> kinds = new LinkedHashMap<>();
        Map<String, Messages.KindSecond> counts = new LinkedHashMap<>();
        Histogram actions = Latencies.newHistogram();
        for (Part x : got) {
            actions.add(x.actions());
            x.kinds().forEach((code, k) -> {
                if (k.hdr() != null) {
                    kinds.merge(code, k.latencies(), (a, b) -> {
                        a.add(b);
                        return a;
                    });
                }
            });
            addCounts(counts, x.kinds());
        }
        if (hlog != null) {
            hlog.interval(merged.elapsedS() - merged.intervalS(), merged.elapsedS(), kinds, actions);
        }
        if (observed) {
            List<KindCounts> perKind = new ArrayList<>();
            for (Kind k : Kind.all()) {
                Histogram h = kinds.getOrDefault(k.code(), Latencies.newHistogram());
                perKind.add(kindCounts(k.code(), h, counts.get(k.code())));
            }
            SecondSample sample = new SecondSample(false, merged, perKind, actions, 0, null);
            Observers.each(o -> o.second(info, sample));
        }
    }

    /** The counts a worker streamed ({@link Messages.Second#kinds()}) added to {@code sum}, per code. */
    static void addCounts(Map<String, Messages.KindSecond> sum, Map<String, Messages.KindSecond> worker) {
        worker.forEach((code, k) -> sum.merge(code, k, Messages.KindSecond::plusCounts));
    }

    /** One kind's merged second from its histogram and its summed counts (null: none in the second). */
    static KindCounts kindCounts(String code, Histogram latencies, Messages.KindSecond counts) {
        Messages.KindSecond c = counts == null ? Messages.KindSecond.NONE : counts;
        return new KindCounts(
                code,
                latencies,
                c.withinBeta(),
                0,
                new KindCounts.Outcomes(c.noops(), c.errors(), c.errorNanos()),
                new KindCounts.Cpu(c.cpuNanos(), c.cpuSamples()));
    }

    private static String fmt(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.3f", d);
    }
}
