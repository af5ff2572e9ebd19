package org.bgbench.measurement.merge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.BgWaitResult;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SeriesPoint;

/**
 * Merges the results of the workers of one experiment into the experiment's result [SPEC §14]. Latencies are merged
 * losslessly by adding the workers' HdrHistograms and reading percentiles off the sum (averaging percentiles would be
 * wrong); counts, no-ops, errors and within-β counts add up; throughput is the sum of the workers' throughputs, each
 * over its own measured period (the workers start together and run equally long, so the periods differ by the
 * coordinator's start skew, which the result records).
 */
public final class ResultMerger {
    private ResultMerger() {
    }

    /** One kind's figures from several results, merged. */
    static KindResult merge(String code, List<KindResult> parts, double seconds) {
        Histogram h = Latencies.newHistogram();
        long within = 0;
        long noops = 0;
        long errors = 0;
        double errorNanos = 0;
        for (KindResult k : parts) {
            if (k == null) {
                continue;
            }
            h.add(k.histogram());
            within += k.withinBetaCount();
            noops += k.noops();
            errors += k.errors();
            errorNanos += k.errorMeanMs() == null ? 0 : k.errorMeanMs() * 1e6 * k.errors();
        }
        return KindResult.of(new KindCounts(code, h, within, noops, errors, Math.round(errorNanos)), seconds);
    }

    /**
     * The merged result of {@code parts}, one per worker, with {@code series} as its per-second series (merged live by
     * the coordinator, or empty). Descriptive sections come from the first part; {@code config} gains
     * {@code workers} (each worker's own headline figures) and whatever {@code extraConfig} holds.
     */
    public static RunResult merge(List<RunResult> parts, List<String> workerNames, List<SeriesPoint> series,
                                  Map<String, Object> extraConfig) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no worker results to merge");
        }
        RunResult first = parts.get(0);
        double seconds = parts.stream().mapToDouble(RunResult::durationS).average().orElse(0);
        Map<String, KindResult> actions = new LinkedHashMap<>();
        for (String code : first.actions().keySet()) {
            actions.put(code, merge(code, parts.stream().map(p -> p.actions().get(code)).toList(), seconds));
        }
        Map<String, KindResult> sessions = new LinkedHashMap<>();
        for (String code : first.sessions().keySet()) {
            sessions.put(code, merge(code, parts.stream().map(p -> p.sessions().get(code)).toList(), seconds));
        }
        KindResult total = merge("total", parts.stream().map(RunResult::total).toList(), seconds);
        double throughput = parts.stream().mapToDouble(RunResult::throughput).sum();
        int threads = parts.stream().mapToInt(RunResult::threads).sum();
        List<String> warnings = new ArrayList<>();
        List<Map<String, Object>> workers = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            RunResult p = parts.get(i);
            String name = i < workerNames.size() ? workerNames.get(i) : "worker " + i;
            for (String w : p.bottleneckWarnings()) {
                warnings.add(name + ": " + w);
            }
            Map<String, Object> w = new LinkedHashMap<>();
            w.put("worker", name);
            w.put("threads", p.threads());
            w.put("throughput", p.throughput());
            w.put("duration_s", p.durationS());
            w.put("count", p.total().count());
            w.put("errors", p.total().errors());
            w.put("p95_ms", p.total().p95Ms());
            w.put("within_beta_pct", p.total().withinBetaPct());
            w.put("bg_cores", p.cpu() == null ? null : p.cpu().bgCores());
            w.put("start_time", p.startTime());
            w.put("unpredictable_pct", p.unpredictable() == null ? null : p.unpredictable().get("pct"));
            workers.add(w);
        }
        Map<String, Object> config = new LinkedHashMap<>(first.config());
        config.put("workers", workers);
        config.putAll(extraConfig);
        return new RunResult(first.format(), parts.stream().anyMatch(RunResult::partial), earliest(parts),
                latest(parts), throughput, threads, seconds, first.warmupS(), first.betaMs(), actions, sessions, total,
                series, cpu(parts, total.count(), seconds), bgWait(parts), List.copyOf(warnings),
                first.histogramConfig(), first.workload(), first.store(), first.graph(), config,
                unpredictable(parts));
    }

    private static String earliest(List<RunResult> parts) {
        return parts.stream().map(RunResult::startTime).filter(java.util.Objects::nonNull).min(String::compareTo)
                .orElse(null);
    }

    private static String latest(List<RunResult> parts) {
        return parts.stream().map(RunResult::endTime).filter(java.util.Objects::nonNull).max(String::compareTo)
                .orElse(null);
    }

    /** BG's CPU adds up over the workers' processes; the store's is taken from the first worker that saw it. */
    private static CpuResult cpu(List<RunResult> parts, long count, double seconds) {
        Double bg = null;
        Double bgS = null;
        int cores = 0;
        CpuResult store = null;
        for (RunResult p : parts) {
            CpuResult c = p.cpu();
            if (c == null) {
                continue;
            }
            if (c.bgCores() != null) {
                bg = (bg == null ? 0 : bg) + c.bgCores();
            }
            if (c.bgCpuS() != null) {
                bgS = (bgS == null ? 0 : bgS) + c.bgCpuS();
            }
            cores += c.bgAvailableCores();
            if (store == null && c.storeCores() != null) {
                store = c;
            }
        }
        Double perAction = bgS == null || count == 0 ? null : bgS * 1e6 / count;
        CpuResult any = parts.get(0).cpu();
        return new CpuResult(bg, perAction, store == null ? null : store.storeCores(),
                any == null ? null : any.machineCores(), any == null ? null : any.machineIowaitCores(), bgS,
                store == null ? null : store.storeCpuS(), cores, any == null ? 0 : any.machineCpus(),
                store == null ? List.of() : store.storePids(), store == null ? 0 : store.storeProcesses(), null,
                store == null ? null : store.storePeakCores(), null);
    }

    private static BgWaitResult bgWait(List<RunResult> parts) {
        double total = 0;
        long count = 0;
        double action = 0;
        for (RunResult p : parts) {
            if (p.bgWait() != null) {
                total += p.bgWait().totalMs();
                count += p.bgWait().count();
                action += p.bgWait().actionTimeMs();
            }
        }
        return new BgWaitResult(total, count, action, action + total > 0 ? total / (action + total) : null);
    }

    /** Reads checked and unpredictable reads add up; the percentage is recomputed from the sums. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> unpredictable(List<RunResult> parts) {
        long checked = 0;
        long bad = 0;
        long skipped = 0;
        Double tau = null;
        Map<String, long[]> perAction = new LinkedHashMap<>();
        for (RunResult p : parts) {
            Map<String, Object> u = p.unpredictable();
            if (u == null) {
                return null;
            }
            checked += num(u.get("reads_checked"));
            bad += num(u.get("unpredictable_reads"));
            skipped += num(u.get("reads_skipped"));
            if (u.get("tau_pct") instanceof Number t) {
                tau = t.doubleValue();
            }
            if (u.get("actions") instanceof Map<?, ?> actions) {
                for (Map.Entry<String, Object> a : ((Map<String, Object>) actions).entrySet()) {
                    Map<String, Object> x = (Map<String, Object>) a.getValue();
                    long[] sum = perAction.computeIfAbsent(a.getKey(), k -> new long[2]);
                    sum[0] += num(x.get("reads_checked"));
                    sum[1] += num(x.get("unpredictable_reads"));
                }
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        double pct = checked == 0 ? 0 : 100.0 * bad / checked;
        m.put("reads_checked", checked);
        m.put("unpredictable_reads", bad);
        m.put("pct", pct);
        m.put("tau_pct", tau);
        m.put("meets_tau", tau == null || pct <= tau);
        m.put("reads_skipped", skipped);
        Map<String, Object> per = new LinkedHashMap<>();
        perAction.forEach((k, v) -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("reads_checked", v[0]);
            x.put("unpredictable_reads", v[1]);
            x.put("pct", v[0] == 0 ? 0.0 : 100.0 * v[1] / v[0]);
            per.put(k, x);
        });
        m.put("actions", per);
        m.put("freshness", freshness(parts));
        List<Object> samples = new ArrayList<>();
        for (RunResult p : parts) {
            if (p.unpredictable().get("samples") instanceof List<?> l) {
                samples.addAll(l.subList(0, Math.min(l.size(), 10)));
            }
        }
        m.put("samples", samples);
        m.put("merged_from_workers", parts.size());
        return m;
    }

    /**
     * The workers' freshness curves merged bucket by bucket (each worker splits its own horizon into the same number
     * of buckets; the merged bucket spans the widest): reads and fresh reads add up, p and p(≤ t) are recomputed.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> freshness(List<RunResult> parts) {
        List<Map<String, Object>> merged = new ArrayList<>();
        long reads = 0;
        double horizon = 0;
        for (RunResult p : parts) {
            Object f = p.unpredictable().get("freshness");
            if (!(f instanceof Map<?, ?> fm)) {
                continue;
            }
            reads += num(fm.get("reads"));
            if (fm.get("horizon_ms") instanceof Number h) {
                horizon = Math.max(horizon, h.doubleValue());
            }
            List<Map<String, Object>> buckets = (List<Map<String, Object>>) fm.get("buckets");
            for (int i = 0; i < buckets.size(); i++) {
                Map<String, Object> b = buckets.get(i);
                if (merged.size() <= i) {
                    Map<String, Object> x = new LinkedHashMap<>();
                    x.put("from_ms", b.get("from_ms"));
                    x.put("to_ms", b.get("to_ms"));
                    x.put("reads", 0L);
                    x.put("valid", 0L);
                    merged.add(x);
                }
                Map<String, Object> x = merged.get(i);
                x.put("reads", (Long) x.get("reads") + num(b.get("reads")));
                x.put("valid", (Long) x.get("valid") + num(b.get("valid")));
                if (b.get("to_ms") instanceof Number t && x.get("to_ms") instanceof Number u
                        && t.doubleValue() > u.doubleValue()) {
                    x.put("to_ms", t);
                }
            }
        }
        long cumReads = 0;
        long cumValid = 0;
        for (Map<String, Object> x : merged) {
            long r = (Long) x.get("reads");
            long v = (Long) x.get("valid");
            cumReads += r;
            cumValid += v;
            x.put("p", r == 0 ? null : (double) v / r);
            x.put("p_at_most", cumReads == 0 ? null : (double) cumValid / cumReads);
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("horizon_ms", horizon);
        f.put("reads", reads);
        f.put("buckets", merged);
        return f;
    }

    private static long num(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }

    /**
     * One second of the run merged over the workers that reported it: counts add up, percentiles come from the sum
     * of the interval histograms.
     */
    public static SeriesPoint mergeSecond(List<SeriesPoint> points, List<Histogram> latencies, long betaNanos) {
        Histogram h = Latencies.newHistogram();
        for (Histogram l : latencies) {
            h.add(l);
        }
        SeriesPoint f = points.get(0);
        long actions = 0;
        double throughput = 0;
        long sessions = 0;
        long errors = 0;
        long noops = 0;
        double wait = 0;
        Double bg = null;
        double interval = 0;
        double elapsed = 0;
        for (SeriesPoint p : points) {
            actions += p.actions();
            throughput += p.throughput();
            sessions += p.sessions();
            errors += p.errors();
            noops += p.noops();
            wait += p.bgWaitMs();
            interval = Math.max(interval, p.intervalS());
            elapsed = Math.max(elapsed, p.elapsedS());
            if (p.bgCores() != null) {
                bg = (bg == null ? 0 : bg) + p.bgCores();
            }
        }
        long n = h.getTotalCount();
        Double within = n == 0 ? null : 100.0 * h.getCountBetweenValues(0, betaNanos) / n;
        return new SeriesPoint(f.second(), elapsed, interval, actions, throughput, sessions, errors, noops,
                n == 0 ? null : Latencies.millis(h.getValueAtPercentile(50)),
                n == 0 ? null : Latencies.millis(h.getValueAtPercentile(95)),
                n == 0 ? null : Latencies.millis(h.getValueAtPercentile(99)),
                n == 0 ? null : Latencies.millis(h.getMaxValue()), within, wait, bg, f.storeCores(), f.machineCores());
    }
}
