package org.bgbench.measurement.report;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.bgbench.measurement.BgWaitResult;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.NodeResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SecondSample;
import org.bgbench.measurement.SeriesPoint;
import org.bgbench.measurement.open.LatencySummary;
import org.bgbench.measurement.open.OpenModelResult;

/** The human-readable forms of results: a fixed-width summary table and one-line progress reports. */
public final class SummaryPrinter {
    private static final String ROW = "%-16s %12s %11s %9s %9s %9s %10s %8s %8s %9s %8s%n";
    /** The same with a last column of stuck executions, used when some were stuck. */
    private static final String STUCK_ROW = "%-16s %12s %11s %9s %9s %9s %10s %8s %8s %9s %8s %7s%n";

    private SummaryPrinter() {}

    public static void print(RunResult r, PrintStream out) {
        out.print(summary(r));
        out.flush();
    }

    /**
     * The summary table: per action, per session, totals, CPU, BG wait and warnings. Column {@code BG µs} is BG's
     * mean thread CPU per sampled store call of the kind ({@link KindResult#bgCpuUs()}), {@code -} when unknown.
     */
    public static String summary(RunResult r) {
        StringBuilder sb = new StringBuilder();
        sb.append(fmt(
                "BG run%s: %s s measured (warm-up %s s), %,d threads, %s actions/s, β %s ms%n",
                r.partial() ? " (partial)" : "",
                num(r.durationS(), 1),
                num(r.warmupS(), 1),
                r.threads(),
                num(r.throughput(), 1),
                num(r.betaMs(), 0)));
        // Stuck executions (still waiting when the run ended) get a column of their own, only when there are some.
        boolean stuck = r.total().stuck() > 0 || r.sessions().values().stream().anyMatch(k -> k.stuck() > 0);
        row(
                sb, stuck, "action", "count", "act/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "≤β %", "BG µs", "noops",
                "errors", "stuck");
        rows(sb, r.actions(), stuck);
        KindResult t = r.total();
        row(
                sb,
                stuck,
                "total",
                count(t.count()),
                num(t.throughput(), 1),
                ms(t.p50Ms()),
                ms(t.p95Ms()),
                ms(t.p99Ms()),
                ms(t.maxMs()),
                pct(t.withinBetaPct()),
                num(t.bgCpuUs(), 1),
                count(t.noops()),
                count(t.errors()),
                count(t.stuck()));
        if (r.sessions().values().stream().anyMatch(SummaryPrinter::ran)) {
            row(
                    sb, stuck, "session", "count", "/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "≤β %", "BG µs",
                    "noops", "errors", "stuck");
            rows(sb, r.sessions(), stuck);
        }
        sb.append(Legend.of(r)).append(System.lineSeparator());
        if (stuck) {
            sb.append(fmt("stuck: still waiting on the store when the run ended; in the latencies with the time they "
                    + "had waited (at least that long), never within β%n"));
        }
        if (r.open() != null) {
            open(sb, r.open());
        }
        CpuResult c = r.cpu();
        sb.append(fmt(
                "CPU      BG %s of %d cores (%s µs/action",
                num(c.bgCores(), 2), c.bgAvailableCores(), num(c.bgUsPerAction(), 1)));
        if (c.bgOutsideUsPerAction() != null) {
            sb.append(fmt(", outside calls %s µs/action", num(c.bgOutsideUsPerAction(), 1)));
        }
        sb.append(')');
        if (c.storeCores() != null) {
            sb.append(fmt(", store %s cores (%d processes)", num(c.storeCores(), 2), c.storeProcesses()));
        }
        if (c.machineCores() != null) {
            sb.append(fmt(", machine %s of %d cores", num(c.machineCores(), 2), c.machineCpus()));
        }
        sb.append(System.lineSeparator());
        if (r.nodes().stream().anyMatch(n -> !"bg".equals(n.role()))) {
            // BG's machine alone is what the CPU line shows; with store hosts every node gets a line of means.
            for (NodeResult n : r.nodes()) {
                sb.append(fmt(
                        "Node     %s (%s): CPU %s of %d cores (max %s), memory %s of %s GB, network %s/%s MB/s"
                                + " in/out, disks %s/%s MB/s read/written, busiest disk %s %%%n",
                        n.name(),
                        n.role(),
                        num(n.busyCores().mean(), 2),
                        n.cpus(),
                        num(n.busyCores().max(), 2),
                        scaled(n.memUsedBytes().mean(), 1e9),
                        scaled(n.memTotalBytes().max(), 1e9),
                        scaled(n.netRxBytesPerS().mean(), 1e6),
                        scaled(n.netTxBytesPerS().mean(), 1e6),
                        scaled(n.diskReadBytesPerS().mean(), 1e6),
                        scaled(n.diskWriteBytesPerS().mean(), 1e6),
                        num(n.diskBusyPct().mean(), 0)));
            }
        }
        BgWaitResult w = r.bgWait();
        sb.append(fmt(
                "BG wait  %s ms in %,d waits (%s %% of action time)%n",
                num(w.totalMs(), 0), w.count(), w.fraction() == null ? "-" : num(100 * w.fraction(), 1)));
        if (r.bottleneckWarnings().isEmpty()) {
            sb.append(fmt("Warnings none%n"));
        } else {
            sb.append(fmt("Warnings%n"));
            for (String warning : r.bottleneckWarnings()) {
                sb.append(fmt("  ! %s%n", warning));
            }
        }
        if (r.incompleteReason() != null) {
            sb.append(fmt("Incomplete  %s%n", r.incompleteReason()));
        }
        if (r.open() != null && !r.open().valid()) {
            sb.append(fmt("Invalid  %s%n", r.open().invalidReason()));
        }
        return sb.toString();
    }

    /**
     * The open model's lines: the latencies above are response times (from each arrival's due time); here the schedule
     * kept, the service times beside them, and each phase.
     */
    private static void open(StringBuilder sb, OpenModelResult o) {
        LatencySummary d = o.startDelay();
        sb.append(fmt(
                "Open     arrivals %s (%s): %,d due, %s/s; latencies above count from each arrival's due " + "time%n",
                o.schedule(), o.process(), o.offered(), num(o.offeredRate(), 1)));
        sb.append(fmt(
                "Schedule start delay p50 %s ms, p99 %s ms, max %s ms; %s %% late (> %s ms or never started, at most %s %% may); "
                        + "%s %% found all %d threads busy; %,d not started at the end%n",
                ms(d.p50Ms()),
                ms(d.p99Ms()),
                ms(d.maxMs()),
                num(o.latePct(), 2),
                num(o.maxLagMs(), 0),
                num(o.maxLatePct(), 1),
                num(o.started() == 0 ? 0 : 100.0 * o.queued() / o.started(), 2),
                o.inFlightLimit(),
                o.unstarted()));
        sb.append(fmt("%-8s %10s %10s %10s %10s%n", "service", "count", "p50 ms", "p99 ms", "max ms"));
        o.service()
                .forEach((k, v) -> sb.append(fmt(
                        "%-8s %10s %10s %10s %10s%n",
                        k, count(v.count()), ms(v.p50Ms()), ms(v.p99Ms()), ms(v.maxMs()))));
        if (o.phases().size() > 1) {
            sb.append(fmt(
                    "%-5s %-22s %9s %10s %10s %10s %10s%n",
                    "phase", "schedule", "from s", "act/s", "p95 ms", "p99 ms", "max ms"));
            for (OpenModelResult.PhaseResult p : o.phases()) {
                sb.append(fmt(
                        "%-5d %-22s %9s %10s %10s %10s %10s%n",
                        p.index(),
                        p.label(),
                        num(p.startS(), 1),
                        num(p.throughput(), 1),
                        ms(p.response().p95Ms()),
                        ms(p.response().p99Ms()),
                        ms(p.response().maxMs())));
            }
        }
    }

    /** Whether a kind was issued at all: a kind that never ran gets no row of zeros. */
    static boolean ran(KindResult k) {
        return k.count() > 0 || k.noops() > 0 || k.errors() > 0 || k.stuck() > 0;
    }

    private static void rows(StringBuilder sb, Map<String, KindResult> kinds, boolean stuck) {
        kinds.entrySet().stream()
                .filter(e -> ran(e.getValue()))
                .forEach(e -> kindRow(sb, e.getKey(), e.getValue(), stuck));
    }

    private static void kindRow(StringBuilder sb, String code, KindResult k, boolean stuck) {
        row(
                sb,
                stuck,
                code,
                count(k.count()),
                num(k.throughput(), 1),
                ms(k.p50Ms()),
                ms(k.p95Ms()),
                ms(k.p99Ms()),
                ms(k.maxMs()),
                pct(k.withinBetaPct()),
                num(k.bgCpuUs(), 1),
                count(k.noops()),
                count(k.errors()),
                count(k.stuck()));
    }

    /** One table row; the last cell (stuck) only with {@code stuck}. */
    private static void row(StringBuilder sb, boolean stuck, Object... cells) {
        sb.append(stuck ? fmt(STUCK_ROW, cells) : fmt(ROW, Arrays.copyOf(cells, cells.length - 1)));
    }

    /** One progress line, e.g. {@code   12s   45,120 act/s  p95 1.2 ms  errors 0  bg 0.9 cores  store 1.1 cores}. */
    public static String progress(SecondSample sample) {
        return progress(sample.point(), sample.warmup());
    }

    /**
     * Whether a sample gets a progress line: not the short interval that ends a phase (a fraction of a second after the
     * last whole one), whose line would repeat that second's label with a figure from a few samples; it is counted in
     * the summary.
     */
    public static boolean worthALine(SeriesPoint p) {
        return p.intervalS() >= 0.5;
    }

    /**
     * The line of one sample, labelled with its second of the phase: its index, not its rounded end, so a sampler
     * that fell behind on a busy host never prints one second twice.
     */
    public static String progress(SeriesPoint p, boolean warmup) {
        StringBuilder sb = new StringBuilder();
        sb.append(warmup ? "warm-up " : "")
                .append(fmt(
                        "%4ds  %,8.0f act/s  p95 %s ms  errors %,d",
                        p.second(), p.throughput(), shortMs(p.p95Ms()), p.errors()));
        if (p.errors() > 0 && p.errorPct() != null) {
            sb.append(fmt(" (%.0f %%)", p.errorPct()));
        }
        if (p.bgCores() != null) {
            sb.append(fmt("  bg %.1f cores", p.bgCores()));
        }
        if (p.storeCores() != null) {
            sb.append(fmt("  store %.1f cores", p.storeCores()));
        }
        return sb.toString();
    }

    private static String shortMs(Double ms) {
        if (ms == null) {
            return "-";
        }
        return ms < 1 ? fmt("%.2f", ms) : ms < 100 ? fmt("%.1f", ms) : fmt("%,.0f", ms);
    }

    private static String ms(Double v) {
        return v == null ? "-" : v < 1000 ? fmt("%.3f", v) : fmt("%,.1f", v);
    }

    private static String pct(Double v) {
        return v == null ? "-" : fmt("%.2f", v);
    }

    private static String count(long v) {
        return fmt("%,d", v);
    }

    private static String scaled(Double v, double unit) {
        return num(v == null ? null : v / unit, 1);
    }

    private static String num(Double v, int decimals) {
        return v == null ? "-" : fmt("%,." + decimals + "f", v);
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
