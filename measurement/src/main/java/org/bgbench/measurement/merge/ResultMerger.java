package org.bgbench.measurement.merge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.BgWaitResult;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.NodeResult;
import org.bgbench.measurement.RunEvidence;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SeriesPoint;
import org.bgbench.measurement.Stalls;
import org.bgbench.measurement.Unpredictable;

/**
 * Merges the results of the workers of one experiment into the experiment's result (dissertation 4.3). Latencies are merged
 * losslessly by adding the workers' HdrHistograms and reading percentiles off the sum (averaging percentiles would be
 * wrong); counts, no-ops, errors and within-β counts add up; throughput is the sum of the workers' throughputs, each
 * over its own measured period (the workers start together and run equally long, so the periods differ by the
 * coordinator's start skew, which the result records).
 */
public final class ResultMerger {
    private ResultMerger() {}

    /** One kind's figures from several results, merged. */
    static KindResult merge(String code, List<KindResult> parts, double seconds) {
        Histogram h = Latencies.newHistogram();
        long within = 0;
        long noops = 0;
        long errors = 0;
        long stuck = 0;
        double errorNanos = 0;
        double cpuNanos = 0;
        long cpuSamples = 0;
        for (KindResult k : parts) {
            if (k == null) {
                continue;
            }
            h.add(k.histogram());
            within += k.withinBetaCount();
            noops += k.noops();
            errors += k.errors();
            stuck += k.stuck();
            errorNanos += k.errorMeanMs() == null ? 0 : k.errorMeanMs() * 1e6 * k.errors();
            if (k.bgCpuUs() != null) {
                cpuNanos += k.bgCpuUs() * 1e3 * k.bgCpuSamples();
                cpuSamples += k.bgCpuSamples();
            }
        }
        return KindResult.of(
                new KindCounts(
                        code,
                        h,
                        within,
                        stuck,
                        new KindCounts.Outcomes(noops, errors, Math.round(errorNanos)),
                        new KindCounts.Cpu(Math.round(cpuNanos), cpuSamples)),
                seconds);
    }

    /**
     * The merged result of {@code parts}, one per worker, with {@code series} as its per-second series (merged live by
     * the coordinator, or empty). Descriptive sections come from the first part; {@code config} gains
     * {@code workers} (each worker's own headline figures) and whatever {@code extraConfig} holds.
     */
    public static RunResult merge(
            List<RunResult> parts,
            List<String> workerNames,
            List<SeriesPoint> series,
            Map<String, Object> extraConfig) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no worker results to merge");
        }
        RunResult first = parts.get(0);
        double seconds =
                parts.stream().mapToDouble(RunResult::durationS).average().orElse(0);
        Map<String, KindResult> actions = new LinkedHashMap<>();
        for (String code : first.actions().keySet()) {
            actions.put(
                    code,
                    merge(code, parts.stream().map(p -> p.actions().get(code)).toList(), seconds));
        }
        Map<String, KindResult> sessions = new LinkedHashMap<>();
        for (String code : first.sessions().keySet()) {
            sessions.put(
                    code,
                    merge(code, parts.stream().map(p -> p.sessions().get(code)).toList(), seconds));
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
            w.put(
                    "unpredictable_pct",
                    p.unpredictable() == null ? null : p.unpredictable().pct());
            workers.add(w);
        }
        Map<String, Object> config = new LinkedHashMap<>(first.config());
        // Each worker's run has its own id and evidence, in its own directory; the merged result has neither.
        config.remove(RunEvidence.RUN_ID);
        config.remove(RunEvidence.EVIDENCE);
        config.put("workers", workers);
        config.putAll(extraConfig);
        // A worker whose store stopped answering makes the experiment incomplete: its words, and every stalled or
        // refused second.
        List<String> incomplete = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            RunResult p = parts.get(i);
            if (p.incompleteReason() != null) {
                incomplete.add(
                        (i < workerNames.size() ? workerNames.get(i) : "worker " + i) + ": " + p.incompleteReason());
            }
        }
        for (String key : List.of(Stalls.STALLED_SECONDS, Stalls.REFUSED_SECONDS)) {
            SortedSet<Integer> listed = new TreeSet<>();
            for (RunResult p : parts) {
                if (p.config().get(key) instanceof List<?> list) {
                    list.forEach(x -> listed.add(((Number) x).intValue()));
                }
            }
            if (parts.stream().anyMatch(p -> p.config().containsKey(key))) {
                config.put(key, List.copyOf(listed));
            }
        }
        if (!incomplete.isEmpty()) {
            config.put("completed", false);
            config.put(Stalls.INCOMPLETE_REASON, String.join(" ", incomplete));
        }
        return new RunResult(
                new RunResult.Header(
                        first.format(), parts.stream().anyMatch(RunResult::partial), earliest(parts), latest(parts)),
                new RunResult.Rate(throughput, threads, seconds, first.warmupS(), first.betaMs()),
                new RunResult.Figures(actions, sessions, total, series, first.histogramConfig()),
                new RunResult.Environment(
                        cpu(parts, total.count(), actions.values()),
                        bgWait(parts),
                        nodes(parts),
                        List.copyOf(warnings)),
                first.context().withConfig(config),
                unpredictable(parts, workerNames),
                null);
    }

    /**
     * Every worker's nodes: each worker's own machine, and each store host once (every worker reads the same hosts;
     * the first worker's figures of a host stand for it).
     */
    private static List<NodeResult> nodes(List<RunResult> parts) {
        Map<String, NodeResult> byNode = new LinkedHashMap<>();
        for (RunResult p : parts) {
            for (NodeResult n : p.nodes()) {
                byNode.putIfAbsent(n.role() + " " + n.name(), n);
            }
        }
        return List.copyOf(byNode.values());
    }

    private static String earliest(List<RunResult> parts) {
        return parts.stream()
                .map(RunResult::startTime)
                .filter(Objects::nonNull)
                .min(String::compareTo)
                .orElse(null);
    }

    private static String latest(List<RunResult> parts) {
        return parts.stream()
                .map(RunResult::endTime)
                .filter(Objects::nonNull)
                .max(String::compareTo)
                .orElse(null);
    }

    /**
     * BG's CPU adds up over the workers' processes; the store's is taken from the first worker that saw it. The CPU
     * outside the store calls comes from the merged {@code actions}.
     */
    private static CpuResult cpu(List<RunResult> parts, long count, Collection<KindResult> actions) {
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
        return CpuResult.builder()
                .bgCores(bg)
                .bgUsPerAction(perAction)
                .storeCores(store == null ? null : store.storeCores())
                .machineCores(any == null ? null : any.machineCores())
                .machineIowaitCores(any == null ? null : any.machineIowaitCores())
                .bgCpuS(bgS)
                .storeCpuS(store == null ? null : store.storeCpuS())
                .bgAvailableCores(cores)
                .machineCpus(any == null ? 0 : any.machineCpus())
                .storePids(store == null ? List.of() : store.storePids())
                .storeProcesses(store == null ? 0 : store.storeProcesses())
                .bgPeakCores(null)
                .storePeakCores(store == null ? null : store.storePeakCores())
                .machinePeakCores(null)
                .bgOutsideUsPerAction(CpuResult.outsideUsPerAction(perAction, actions))
                .build();
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
    static Unpredictable unpredictable(List<RunResult> parts) {
        return unpredictable(parts, List.of());
    }

    /**
     * As {@link #unpredictable(List)}; the merged verdict is complete only if every worker's is, and each worker's
     * file problems are named after it.
     */
    static Unpredictable unpredictable(List<RunResult> parts, List<String> workerNames) {
        long checked = 0;
        long bad = 0;
        long skipped = 0;
        long unchecked = 0;
        boolean complete = true;
        List<String> reasons = new ArrayList<>();
        List<Unpredictable.FileProblem> files = new ArrayList<>();
        Double tau = null;
        Map<String, long[]> perAction = new LinkedHashMap<>();
        List<Unpredictable.Sample> samples = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            RunResult p = parts.get(i);
            Unpredictable u = p.unpredictable();
            if (u == null) {
                return null;
            }
            String name = i < workerNames.size() ? workerNames.get(i) : "worker " + i;
            checked += u.readsChecked();
            bad += u.unpredictableReads();
            skipped += u.readsSkipped();
            unchecked += u.readsUnchecked();
            if (!u.verdictComplete()) {
                complete = false;
                reasons.add(name + ": " + u.incompleteReason());
            }
            for (Unpredictable.FileProblem f : u.files()) {
                files.add(new Unpredictable.FileProblem(
                        f.file() == null ? name : name + ": " + f.file(), f.offset(), f.problem()));
            }
            if (u.tauPct() != null) {
                tau = u.tauPct();
            }
            u.actions().forEach((action, x) -> {
                long[] sum = perAction.computeIfAbsent(action, k -> new long[2]);
                sum[0] += x.readsChecked();
                sum[1] += x.unpredictableReads();
            });
            samples.addAll(u.samples().subList(0, Math.min(u.samples().size(), 10)));
        }
        double pct = checked == 0 ? 0 : 100.0 * bad / checked;
        Map<String, Unpredictable.ActionReads> per = new LinkedHashMap<>();
        perAction.forEach((k, v) ->
                per.put(k, new Unpredictable.ActionReads(v[0], v[1], v[0] == 0 ? 0.0 : 100.0 * v[1] / v[0])));
        return Unpredictable.builder()
                .readsChecked(checked)
                .unpredictableReads(bad)
                .pct(pct)
                .tauPct(tau)
                .meetsTau(complete && (tau == null || pct <= tau))
                .readsSkipped(skipped)
                .actions(per)
                .freshness(freshness(parts))
                .samples(samples)
                .validation(null)
                .mergedFromWorkers(parts.size())
                .complete(complete)
                .incompleteReason(complete ? null : String.join("; ", reasons))
                .readsUnchecked(unchecked)
                .files(files)
                .build();
    }

    /**
     * The workers' freshness curves merged bucket by bucket (each worker splits its own horizon into the same number
     * of buckets; the merged bucket spans the widest): reads and fresh reads add up, p and p(≤ t) are recomputed.
     */
    static Unpredictable.Freshness freshness(List<RunResult> parts) {
        List<double[]> spans = new ArrayList<>();
        List<long[]> counts = new ArrayList<>();
        long reads = 0;
        double horizon = 0;
        for (RunResult p : parts) {
            Unpredictable.Freshness f = p.unpredictable().freshness();
            reads += f.reads();
            horizon = Math.max(horizon, f.horizonMs());
            for (int i = 0; i < f.buckets().size(); i++) {
                Unpredictable.Bucket b = f.buckets().get(i);
                if (spans.size() <= i) {
                    spans.add(new double[] {b.fromMs(), b.toMs()});
                    counts.add(new long[2]);
                }
                counts.get(i)[0] += b.reads();
                counts.get(i)[1] += b.valid();
                spans.get(i)[1] = Math.max(spans.get(i)[1], b.toMs());
            }
        }
        List<Unpredictable.Bucket> merged = new ArrayList<>();
        long cumReads = 0;
        long cumValid = 0;
        for (int i = 0; i < spans.size(); i++) {
            long r = counts.get(i)[0];
            long v = counts.get(i)[1];
            cumReads += r;
            cumValid += v;
            merged.add(new Unpredictable.Bucket(
                    spans.get(i)[0],
                    spans.get(i)[1],
                    r,
                    v,
                    r == 0 ? null : (double) v / r,
                    cumReads == 0 ? null : (double) cumValid / cumReads));
        }
        return new Unpredictable.Freshness(horizon, reads, merged);
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
        return SeriesPoint.builder()
                .second(f.second())
                .elapsedS(elapsed)
                .intervalS(interval)
                .actions(actions)
                .throughput(throughput)
                .sessions(sessions)
                .errors(errors)
                .noops(noops)
                .p50Ms(n == 0 ? null : Latencies.millis(h.getValueAtPercentile(50)))
                .p95Ms(n == 0 ? null : Latencies.millis(h.getValueAtPercentile(95)))
                .p99Ms(n == 0 ? null : Latencies.millis(h.getValueAtPercentile(99)))
                .maxMs(n == 0 ? null : Latencies.millis(h.getMaxValue()))
                .withinBetaPct(within)
                .bgWaitMs(wait)
                .bgCores(bg)
                .storeCores(f.storeCores())
                .machineCores(f.machineCores())
                .build();
    }
}
