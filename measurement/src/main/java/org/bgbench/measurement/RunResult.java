package org.bgbench.measurement;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The result of one run (one worker, one experiment): written as JSON by
 * {@link org.bgbench.measurement.report.ResultWriter}, read back by {@link org.bgbench.measurement.report.ResultJson}.
 * Counts add up by construction: every action figure in {@link #total} is the sum over {@link #actions}, and the
 * series' intervals partition the measured period. See measurement/README.md for the schema.
 *
 * @param format             schema identifier, {@value #FORMAT}
 * @param partial            true while the run is still going (a result rewritten during the run)
 * @param startTime          start of the measured period (ISO-8601, UTC)
 * @param endTime            end of the measured period (or of the last sample, when partial)
 * @param throughput         completed actions per second over the measured period
 * @param threads            emulator threads
 * @param durationS          length of the measured period, s
 * @param warmupS            length of the discarded warm-up, s
 * @param betaMs             the SLA's β, ms
 * @param actions            per action code, all 11 in {@link org.bgbench.model.Action} order
 * @param sessions           per session code, in the order given to {@link Measurements}
 * @param total              all actions together (sessions excluded: their actions are counted as actions)
 * @param series             per-second figures of the measured period
 * @param cpu                CPU use
 * @param bgWait             time threads waited inside BG
 * @param bottleneckWarnings what may have limited the run, other than the store
 * @param histogramConfig    configuration of every {@code hdr} histogram
 * @param workload           workload description (mix, distributions, …)
 * @param store              store description
 * @param graph              graph parameters
 * @param config             other settings
 * @param unpredictable      unpredictable-data figures once validation has run, else null
 * @param nodes              CPU, memory, network and disk of BG's machine and of each store host named with
 *                           {@code --store-host} (docs/resources.md); empty in files of older versions
 * @param open               the open model's figures (docs/open-model.md); null for the closed model, whose
 *                           latencies are the ones above. In the open model those are response times, from each
 *                           arrival's due time
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"format", "partial", "start_time", "end_time", "throughput", "threads", "duration_s", "warmup_s",
        "beta_ms", "open", "total", "actions", "sessions", "cpu", "nodes", "bg_wait", "bottleneck_warnings", "series"})
public record RunResult(String format, boolean partial, String startTime, String endTime, double throughput,
                        int threads, double durationS, double warmupS, double betaMs,
                        Map<String, KindResult> actions, Map<String, KindResult> sessions, KindResult total,
                        List<SeriesPoint> series, CpuResult cpu, BgWaitResult bgWait,
                        List<String> bottleneckWarnings, HistogramConfig histogramConfig,
                        Map<String, Object> workload, Map<String, Object> store, Map<String, Object> graph,
                        Map<String, Object> config, Unpredictable unpredictable, List<NodeResult> nodes,
                        org.bgbench.measurement.open.OpenModelResult open) {

    public static final String FORMAT = "bg-run-result/1";

    public RunResult {
        // Files written by other versions may lack sections; absent collections read as empty, not null.
        actions = actions == null ? Map.of() : actions;
        sessions = sessions == null ? Map.of() : sessions;
        series = series == null ? List.of() : series;
        bottleneckWarnings = bottleneckWarnings == null ? List.of() : bottleneckWarnings;
        workload = workload == null ? Map.of() : workload;
        store = store == null ? Map.of() : store;
        graph = graph == null ? Map.of() : graph;
        config = config == null ? Map.of() : config;
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    /** A closed-model result. */
    public RunResult(String format, boolean partial, String startTime, String endTime, double throughput,
                     int threads, double durationS, double warmupS, double betaMs,
                     Map<String, KindResult> actions, Map<String, KindResult> sessions, KindResult total,
                     List<SeriesPoint> series, CpuResult cpu, BgWaitResult bgWait,
                     List<String> bottleneckWarnings, HistogramConfig histogramConfig,
                     Map<String, Object> workload, Map<String, Object> store, Map<String, Object> graph,
                     Map<String, Object> config, Unpredictable unpredictable, List<NodeResult> nodes) {
        this(format, partial, startTime, endTime, throughput, threads, durationS, warmupS, betaMs, actions, sessions,
                total, series, cpu, bgWait, bottleneckWarnings, histogramConfig, workload, store, graph, config,
                unpredictable, nodes, null);
    }

    /** The same result with the open model's section set. */
    public RunResult withOpen(org.bgbench.measurement.open.OpenModelResult section) {
        return new RunResult(format, partial, startTime, endTime, throughput, threads, durationS, warmupS, betaMs,
                actions, sessions, total, series, cpu, bgWait, bottleneckWarnings, histogramConfig,
                workload, store, graph, config, unpredictable, nodes, section);
    }

    /** A result without node figures (the form before {@code nodes} existed). */
    public RunResult(String format, boolean partial, String startTime, String endTime, double throughput,
                     int threads, double durationS, double warmupS, double betaMs,
                     Map<String, KindResult> actions, Map<String, KindResult> sessions, KindResult total,
                     List<SeriesPoint> series, CpuResult cpu, BgWaitResult bgWait,
                     List<String> bottleneckWarnings, HistogramConfig histogramConfig,
                     Map<String, Object> workload, Map<String, Object> store, Map<String, Object> graph,
                     Map<String, Object> config, Unpredictable unpredictable) {
        this(format, partial, startTime, endTime, throughput, threads, durationS, warmupS, betaMs, actions, sessions,
                total, series, cpu, bgWait, bottleneckWarnings, histogramConfig, workload, store, graph, config,
                unpredictable, List.of());
    }

    /** The same result with {@code warnings} instead of its warnings. */
    public RunResult withWarnings(List<String> warnings) {
        return new RunResult(format, partial, startTime, endTime, throughput, threads, durationS, warmupS, betaMs,
                actions, sessions, total, series, cpu, bgWait, List.copyOf(warnings), histogramConfig,
                workload, store, graph, config, unpredictable, nodes, open);
    }

    /** The same result with the descriptive sections replaced by those of {@code context}. */
    public RunResult withContext(RunContext context) {
        return new RunResult(format, partial, startTime, endTime, throughput, threads, durationS, warmupS, betaMs,
                actions, sessions, total, series, cpu, bgWait, bottleneckWarnings, histogramConfig,
                context.workload(), context.store(), context.graph(), context.config(), unpredictable, nodes, open);
    }

    /** The same result with the unpredictable-data section set (after validation). */
    public RunResult withUnpredictable(Unpredictable section) {
        return new RunResult(format, partial, startTime, endTime, throughput, threads, durationS, warmupS, betaMs,
                actions, sessions, total, series, cpu, bgWait, bottleneckWarnings, histogramConfig,
                workload, store, graph, config, section, nodes, open);
    }

    /** The % of reads that observed unpredictable data, 0 when the run was not validated. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public double unpredictablePct() {
        return unpredictable == null ? 0 : unpredictable.pct();
    }

    /**
     * Why the run is incomplete when the store stopped answering (actions stuck, seconds stalled, threads abandoned;
     * {@link Stalls}), in words; null when it is not. An incomplete run does not meet the SLA.
     */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public String incompleteReason() {
        return config.get(Stalls.INCOMPLETE_REASON) instanceof String s ? s : null;
    }

    /** The same result with one more warning (for findings of other modules, e.g. a mix distorted by no-ops). */
    public RunResult withWarning(String warning) {
        List<String> warnings = new ArrayList<>(bottleneckWarnings);
        warnings.add(warning);
        return new RunResult(format, partial, startTime, endTime, throughput, threads, durationS, warmupS, betaMs,
                actions, sessions, total, series, cpu, bgWait, List.copyOf(warnings), histogramConfig,
                workload, store, graph, config, unpredictable, nodes, open);
    }
}
