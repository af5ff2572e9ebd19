package org.bgbench.measurement;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bgbench.measurement.open.OpenModelResult;

/**
 * The result of one run (one worker, one experiment): written as JSON by
 * {@link org.bgbench.measurement.report.ResultWriter}, read back by {@link org.bgbench.measurement.report.ResultJson}.
 * Counts add up by construction: every action figure in {@link #total} is the sum over {@link #actions}, and the
 * series' intervals partition the measured period. See measurement/README.md for the schema.
 *
 * <p>Its JSON keys are flat (one object, snake_case, in a fixed order) whatever the parts: {@link RunResultJson}
 * writes and reads them.
 *
 * @param header        what the file is and which period it covers
 * @param rate          throughput, threads and the period's lengths
 * @param figures       per action, per session, in total and per second
 * @param environment   CPU, BG's waits, the nodes and what may have limited the run
 * @param context       workload, store, graph and other settings
 * @param unpredictable unpredictable-data figures once validation has run, else null
 * @param open          the open model's figures (docs/open-model.md); null for the closed model, whose latencies are
 *                      the ones above. In the open model those are response times, from each arrival's due time
 */
@JsonSerialize(using = RunResultJson.Writer.class)
@JsonDeserialize(using = RunResultJson.Reader.class)
public record RunResult(
        Header header,
        Rate rate,
        Figures figures,
        Environment environment,
        RunContext context,
        Unpredictable unpredictable,
        OpenModelResult open) {

    public static final String FORMAT = "bg-run-result/1";

    public RunResult {
        // Files written by other versions may lack sections; absent parts read as empty, not null.
        header = header == null ? new Header(null, false, null, null) : header;
        rate = rate == null ? new Rate(0, 0, 0, 0, 0) : rate;
        figures = figures == null ? new Figures(null, null, null, null, null) : figures;
        environment = environment == null ? new Environment(null, null, null, null) : environment;
        context = context == null ? RunContext.empty() : context;
    }

    /**
     * What the file is and which period it covers.
     *
     * @param format    schema identifier, {@value #FORMAT}
     * @param partial   true while the run is still going (a result rewritten during the run)
     * @param startTime start of the measured period (ISO-8601, UTC)
     * @param endTime   end of the measured period (or of the last sample, when partial)
     */
    public record Header(String format, boolean partial, String startTime, String endTime) {}

    /**
     * The run's rate and the settings it is read against.
     *
     * @param throughput completed actions per second over the measured period
     * @param threads    emulator threads
     * @param durationS  length of the measured period, s
     * @param warmupS    length of the discarded warm-up, s
     * @param betaMs     the SLA's β, ms
     */
    public record Rate(double throughput, int threads, double durationS, double warmupS, double betaMs) {}

    /**
     * The measured figures: latencies and counts per action and session, and per second.
     *
     * @param actions         per action code, all 11 in {@link org.bgbench.model.Action} order
     * @param sessions        per session code, in the order given to {@link Measurements}
     * @param total           all actions together (sessions excluded: their actions are counted as actions)
     * @param series          per-second figures of the measured period
     * @param histogramConfig configuration of every {@code hdr} histogram
     */
    public record Figures(
            Map<String, KindResult> actions,
            Map<String, KindResult> sessions,
            KindResult total,
            List<SeriesPoint> series,
            HistogramConfig histogramConfig) {
        public Figures {
            actions = actions == null ? Map.of() : actions;
            sessions = sessions == null ? Map.of() : sessions;
            series = series == null ? List.of() : series;
        }

        /** The same figures with {@code points} as the series. */
        public Figures withSeries(List<SeriesPoint> points) {
            return new Figures(actions, sessions, total, points, histogramConfig);
        }
    }

    /**
     * What BG and the machines did besides the store's work.
     *
     * @param cpu                CPU use
     * @param bgWait             time threads waited inside BG
     * @param nodes              CPU, memory, network and disk of BG's machine and of each store host named with
     *                           {@code --store-host} (docs/resources.md); empty in files of older versions
     * @param bottleneckWarnings what may have limited the run, other than the store
     */
    public record Environment(
            CpuResult cpu, BgWaitResult bgWait, List<NodeResult> nodes, List<String> bottleneckWarnings) {
        public Environment {
            nodes = nodes == null ? List.of() : List.copyOf(nodes);
            bottleneckWarnings = bottleneckWarnings == null ? List.of() : bottleneckWarnings;
        }

        public Environment withCpu(CpuResult section) {
            return new Environment(section, bgWait, nodes, bottleneckWarnings);
        }

        public Environment withNodes(List<NodeResult> section) {
            return new Environment(cpu, bgWait, section, bottleneckWarnings);
        }

        public Environment withWarnings(List<String> warnings) {
            return new Environment(cpu, bgWait, nodes, List.copyOf(warnings));
        }
    }

    // Flat accessors: the names the result had before it had parts (and its JSON keys).

    public String format() {
        return header.format();
    }

    public boolean partial() {
        return header.partial();
    }

    public String startTime() {
        return header.startTime();
    }

    public String endTime() {
        return header.endTime();
    }

    public double throughput() {
        return rate.throughput();
    }

    public int threads() {
        return rate.threads();
    }

    public double durationS() {
        return rate.durationS();
    }

    public double warmupS() {
        return rate.warmupS();
    }

    public double betaMs() {
        return rate.betaMs();
    }

    public Map<String, KindResult> actions() {
        return figures.actions();
    }

    public Map<String, KindResult> sessions() {
        return figures.sessions();
    }

    public KindResult total() {
        return figures.total();
    }

    public List<SeriesPoint> series() {
        return figures.series();
    }

    public HistogramConfig histogramConfig() {
        return figures.histogramConfig();
    }

    public CpuResult cpu() {
        return environment.cpu();
    }

    public BgWaitResult bgWait() {
        return environment.bgWait();
    }

    public List<NodeResult> nodes() {
        return environment.nodes();
    }

    public List<String> bottleneckWarnings() {
        return environment.bottleneckWarnings();
    }

    public Map<String, Object> workload() {
        return context.workload();
    }

    public Map<String, Object> store() {
        return context.store();
    }

    public Map<String, Object> graph() {
        return context.graph();
    }

    public Map<String, Object> config() {
        return context.config();
    }

    /** The same result with the open model's section set. */
    public RunResult withOpen(OpenModelResult section) {
        return new RunResult(header, rate, figures, environment, context, unpredictable, section);
    }

    /** The same result with {@code section} as its figures. */
    public RunResult withFigures(Figures section) {
        return new RunResult(header, rate, section, environment, context, unpredictable, open);
    }

    /** The same result with {@code section} as its environment. */
    public RunResult withEnvironment(Environment section) {
        return new RunResult(header, rate, figures, section, context, unpredictable, open);
    }

    /** The same result with {@code warnings} instead of its warnings. */
    public RunResult withWarnings(List<String> warnings) {
        return withEnvironment(environment.withWarnings(warnings));
    }

    /** The same result with the descriptive sections replaced by those of {@code context}. */
    public RunResult withContext(RunContext section) {
        return new RunResult(header, rate, figures, environment, section, unpredictable, open);
    }

    /** The same result with the unpredictable-data section set (after validation). */
    public RunResult withUnpredictable(Unpredictable section) {
        return new RunResult(header, rate, figures, environment, context, section, open);
    }

    /** The % of reads that observed unpredictable data, 0 when the run was not validated. */
    public double unpredictablePct() {
        return unpredictable == null ? 0 : unpredictable.pct();
    }

    /**
     * Why the run is incomplete when the store stopped answering (actions stuck, seconds stalled, threads abandoned;
     * {@link Stalls}), in words; null when it is not. An incomplete run does not meet the SLA.
     */
    public String incompleteReason() {
        return config().get(Stalls.INCOMPLETE_REASON) instanceof String s ? s : null;
    }

    /** The same result with one more warning (for findings of other modules, e.g. a mix distorted by no-ops). */
    public RunResult withWarning(String warning) {
        List<String> warnings = new ArrayList<>(bottleneckWarnings());
        warnings.add(warning);
        return withWarnings(warnings);
    }
}
