package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bgbench.rating.DoublingDelta;
import org.bgbench.rating.SaturatingThreads;
import org.bgbench.runner.delta.DeltaExperiments;

/** The lines and the JSON of {@code bg delta --method experiments}: the chosen T and why, each experiment, δ. */
final class DeltaReport {
    static final String HEADER = String.format(
            Locale.ROOT, "%7s %6s %12s %9s %9s %7s", "δ (s)", "T", "actions/s", "mix dev", "within π", "mix ok");

    private DeltaReport() {}

    static String probeLine(SaturatingThreads.Probe p) {
        SaturatingThreads.Use u = p.busiest();
        return String.format(
                Locale.ROOT,
                "T=%d: %,.0f actions/s, busiest %s",
                p.threads(),
                p.throughput(),
                u == null ? "unknown (no utilisation read)" : use(u));
    }

    static String threadsLine(DeltaExperiments.ThreadChoice c) {
        return "T = " + c.threads() + " (" + c.source() + "): " + c.reason()
                + (c.thisMachine()
                        ? "; read from this machine, as no --store-host answered: the store shares it with BG"
                        : "");
    }

    static String row(DeltaExperiments.Row r) {
        return String.format(
                Locale.ROOT,
                "%7d %6d %,12.1f %9.3f %9s %7s",
                r.measured().deltaS(),
                r.threads(),
                r.measured().throughput(),
                r.measured().mixDeviation(),
                r.withinTolerance() ? "yes" : "no",
                r.mixOk() ? "yes" : "no");
    }

    /** The closing lines: δ and why, or that nothing was decided. */
    static void summary(DeltaExperiments.Analysis a, PrintWriter out) {
        DoublingDelta.Verdict v = a.verdict();
        if (v == null) {
            out.println("δ: not decided (no experiment measured)");
            return;
        }
        if (a.interrupted() != null && !v.converged()) {
            out.println("δ: not decided (stopped early): " + v.reason());
            return;
        }
        out.println("δ = " + v.deltaS() + " s" + (v.converged() ? "" : " (Δ, not converged)") + ": " + v.reason());
    }

    /** The analysis as JSON; {@code probes} are the T search's probes so far, kept when T is not chosen yet. */
    static Map<String, Object> toMap(DeltaExperiments.Analysis a, List<SaturatingThreads.Probe> probes) {
        Map<String, Object> m = new LinkedHashMap<>();
        DeltaExperiments.ThreadChoice c = a.threads();
        if (c != null) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("threads", c.threads());
            t.put("source", c.source());
            t.put("reason", c.reason());
            t.put("resource", c.use() == null ? null : use(c.use(), new LinkedHashMap<>()));
            t.put("this_machine", c.thisMachine());
            t.put("probes", c.probes().stream().map(DeltaReport::probe).toList());
            m.put("threads", t);
        } else {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("threads", null);
            t.put("source", "not chosen");
            t.put("probes", probes.stream().map(DeltaReport::probe).toList());
            m.put("threads", t);
        }
        m.put(
                "experiments",
                a.experiments().stream().map(DeltaReport::experiment).toList());
        DoublingDelta.Verdict v = a.verdict();
        boolean decided = v != null && (v.converged() || a.interrupted() == null);
        m.put("delta_s", decided ? v.deltaS() : null);
        m.put("converged", v != null && v.converged());
        m.put("reason", v == null ? null : v.reason());
        m.put("interrupted", a.interrupted());
        return m;
    }

    private static Map<String, Object> probe(SaturatingThreads.Probe p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("threads", p.threads());
        m.put("throughput", p.throughput());
        List<Map<String, Object>> uses =
                p.uses().stream().map(u -> use(u, new LinkedHashMap<>())).toList();
        m.put("utilisation", uses);
        return m;
    }

    private static Map<String, Object> experiment(DeltaExperiments.Row r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("delta_s", r.measured().deltaS());
        m.put("threads", r.threads());
        m.put("throughput", r.measured().throughput());
        m.put("mix_deviation", r.measured().mixDeviation());
        m.put("mix_ok", r.mixOk());
        m.put("within_tolerance", r.withinTolerance());
        return m;
    }

    private static Map<String, Object> use(SaturatingThreads.Use u, Map<String, Object> m) {
        m.put("node", u.node());
        m.put("resource", u.resource());
        m.put("utilisation", u.fraction());
        return m;
    }

    private static String use(SaturatingThreads.Use u) {
        return String.format(Locale.ROOT, "%s of %s at %.0f %%", u.resource(), u.node(), 100 * u.fraction());
    }
}
