package org.bgbench.scaling.speedup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bgbench.measurement.NodeResult;

/**
 * What {@code bg scale} found: each configuration's SoAR under the one SLA, its ratio to the baseline's (speedup
 * SoAR(N)/SoAR(N₁), scaleup SoAR(N·size, N)/SoAR(size, N₁); scalability paper E.2.1, E.2.2), the ideal ratio, the
 * efficiency ratio/ideal, and its bottleneck. A SoAR that is only a lower bound prints "≥", and the ratio and
 * efficiency computed from it carry their {@link RatioBound}. {@link #toMap()} is {@code scale.json}, {@link #svg()}
 * {@code scale.svg}, {@link #table()} the printed table.
 *
 * @param mode     speedup or scaleup
 * @param store    the store binding
 * @param sla      the SLA, as {@code --sla} took it
 * @param outcomes one per configuration, in the plan's order (the first is the baseline)
 * @param warnings what a reader must know, e.g. that every node shared BG's machine
 */
public record ScaleReport(ScaleMode mode, String store, String sla, List<Outcome> outcomes, List<String> warnings) {

    /**
     * One configuration's result.
     *
     * @param config   which configuration it was
     * @param rating   what its rating found
     * @param hardware the nodes of its SoAR experiment and their bottleneck
     */
    public record Outcome(Config config, Rating rating, Hardware hardware) {

        /**
         * A configuration of the plan.
         *
         * @param name      the configuration's name
         * @param nodes     N
         * @param members   M of its graph
         * @param ratingDir the rating's directory, relative to scale.json's
         */
        public record Config(String name, int nodes, long members, String ratingDir) {}

        /**
         * What a configuration's rating found.
         *
         * @param rated whether its rating finished
         * @param soar  its SoAR, T and status, and whether the SoAR is a lower bound (null when it failed)
         * @param error why it failed, or null
         */
        public record Rating(boolean rated, SoarFigure soar, String error) {
            /** A rating that failed for {@code error}. */
            public static Rating failed(String error) {
                return new Rating(false, null, error);
            }
        }

        /**
         * Where a configuration's SoAR experiment ran.
         *
         * @param resources  the SoAR experiment's nodes (BG's machine, then the store hosts), empty when unknown
         * @param bottleneck its bottleneck (null when it failed before any rating)
         * @param oneHost    whether every node was on BG's own machine
         */
        public record Hardware(List<NodeResult> resources, Bottleneck bottleneck, boolean oneHost) {
            public Hardware {
                resources = resources == null ? List.of() : List.copyOf(resources);
            }
        }

        /** A configuration that could not be rated. */
        public static Outcome failed(Config config, String error, boolean oneHost) {
            return new Outcome(config, Rating.failed(error), new Hardware(List.of(), null, oneHost));
        }

        public String name() {
            return config.name();
        }

        public int nodes() {
            return config.nodes();
        }

        public long members() {
            return config.members();
        }

        public String ratingDir() {
            return config.ratingDir();
        }

        public boolean rated() {
            return rating.rated();
        }

        /** SoAR in actions/s, null when it failed. */
        public Double soar() {
            return rating.soar() == null ? null : rating.soar().actionsPerSecond();
        }

        /** T at SoAR, null when it failed. */
        public Integer threads() {
            return rating.soar() == null ? null : rating.soar().threads();
        }

        public String soarStatus() {
            return rating.soar() == null ? null : rating.soar().status();
        }

        /** Whether its SoAR is only a lower bound ("≥"). */
        public boolean lowerBound() {
            return rating.soar() != null && rating.soar().isLowerBound();
        }

        /** Why its SoAR is only a lower bound, or null. */
        public String lowerBoundReason() {
            return rating.soar() == null ? null : rating.soar().lowerBound();
        }

        public String error() {
            return rating.error();
        }

        public List<NodeResult> resources() {
            return hardware.resources();
        }

        public Bottleneck bottleneck() {
            return hardware.bottleneck();
        }

        public boolean oneHost() {
            return hardware.oneHost();
        }
    }

    public ScaleReport {
        outcomes = List.copyOf(outcomes);
        warnings = List.copyOf(warnings);
    }

    /** The baseline's outcome (the plan's first configuration). */
    public Outcome baseline() {
        return outcomes.get(0);
    }

    /**
     * SoAR(config)/SoAR(baseline); null when either was not rated or the baseline's SoAR is 0 (nothing to divide
     * by).
     */
    public Double ratio(Outcome o) {
        Outcome b = baseline();
        if (!o.rated() || !b.rated() || o.soar() == null || b.soar() == null || !(b.soar() > 0)) {
            return null;
        }
        return o.soar() / b.soar();
    }

    /**
     * How exact {@link #ratio} and {@link #efficiency} are: a lower bound when the configuration's SoAR is one, an upper
     * bound when the baseline's is, unknown in direction when both are; null with no ratio.
     */
    public RatioBound ratioBound(Outcome o) {
        return ratio(o) == null
                ? null
                : RatioBound.of(o.lowerBound(), baseline().lowerBound(), o == baseline());
    }

    /** The ratio a perfectly scaling store would show: N/N₁ for speedup, 1 for scaleup. */
    public double ideal(Outcome o) {
        return mode.ideal(o.nodes(), baseline().nodes());
    }

    /** ratio / ideal; 1 is ideal, above 1 superlinear (the paper's HBase, E.2.1), null with no ratio. */
    public Double efficiency(Outcome o) {
        Double r = ratio(o);
        return r == null ? null : r / ideal(o);
    }

    /** Whether every configuration was rated. */
    public boolean complete() {
        return outcomes.stream().allMatch(Outcome::rated);
    }

    /** The JSON form ({@code scale.json}). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "scale");
        m.put("mode", mode.label());
        m.put("store", store);
        m.put("sla", sla);
        m.put("baseline", baseline().name());
        m.put("complete", complete());
        List<Object> list = new ArrayList<>();
        for (Outcome o : outcomes) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", o.name());
            c.put("nodes", o.nodes());
            c.put("status", o.rated() ? "rated" : "failed");
            c.put("members", o.members());
            c.put("soar", o.soar());
            c.put("threads", o.threads());
            c.put("soar_status", o.soarStatus());
            c.put("lower_bound", o.lowerBound());
            c.put("lower_bound_reason", o.lowerBoundReason());
            c.put("ratio", ratio(o));
            c.put("ratio_bound", ratioBound(o) == null ? null : ratioBound(o).label());
            c.put("ideal", ideal(o));
            c.put("efficiency", efficiency(o));
            c.put("rating_dir", o.ratingDir());
            c.put("error", o.error());
            c.put("one_host", o.oneHost());
            c.put("bottleneck", o.bottleneck() == null ? null : o.bottleneck().toMap());
            c.put("resources", o.resources());
            list.add(c);
        }
        m.put("configurations", list);
        m.put("warnings", warnings);
        return m;
    }

    /** The printed table, one line per configuration, then what its bounds mean, the bottlenecks and warnings. */
    public String table() {
        StringBuilder s = new StringBuilder();
        String ratioName = mode == ScaleMode.SPEEDUP ? "speedup" : "scaleup";
        s.append(String.format(
                Locale.ROOT,
                "%-16s %5s %10s %12s %6s %9s %6s %10s  %s%n",
                "configuration",
                "nodes",
                "members",
                "SoAR",
                "T",
                ratioName,
                "ideal",
                "efficiency",
                "status"));
        for (Outcome o : outcomes) {
            Double r = ratio(o);
            Double e = efficiency(o);
            String bound = ratioBound(o) == null ? "" : ratioBound(o).sign();
            s.append(String.format(
                    Locale.ROOT,
                    "%-16s %5d %,10d %12s %6s %9s %6.2f %10s  %s%n",
                    o.name(),
                    o.nodes(),
                    o.members(),
                    o.soar() == null ? "-" : soarText(o),
                    o.threads() == null ? "-" : o.threads().toString(),
                    r == null ? "-" : bound + ratioText(r),
                    ideal(o),
                    e == null ? "-" : bound + efficiencyText(e),
                    o.rated()
                            ? "rated" + (o.soarStatus() == null ? "" : " (" + o.soarStatus() + ")")
                            : "failed: " + o.error()));
        }
        for (Outcome o : outcomes) {
            for (String note : boundNotes(o, ratioName)) {
                s.append(note).append('\n');
            }
        }
        for (Outcome o : outcomes) {
            if (o.bottleneck() != null) {
                s.append("bottleneck of ")
                        .append(o.name())
                        .append(": ")
                        .append(o.bottleneck().text())
                        .append('\n');
            }
            for (NodeResult n : o.resources()) {
                s.append("  ")
                        .append(n.role().equals("bg") ? "BG's host " : "store host ")
                        .append(n.name())
                        .append(": ")
                        .append(use(n))
                        .append('\n');
            }
        }
        for (String w : warnings) {
            s.append("warning: ").append(w).append('\n');
        }
        return s.toString();
    }

    /**
     * What a configuration's bounds mean, for the table: why its SoAR is a lower bound, and which way its ratio and
     * efficiency are bounded (speedup = SoAR(N)/SoAR(N₁): a lower-bound numerator bounds it from below, a lower-bound
     * denominator from above).
     */
    List<String> boundNotes(Outcome o, String ratioName) {
        List<String> notes = new ArrayList<>();
        if (o.lowerBound()) {
            notes.add(o.name() + ": SoAR " + soarText(o) + " is a lower bound: " + o.lowerBoundReason());
        }
        RatioBound bound = ratioBound(o);
        if (bound == null || bound == RatioBound.EXACT) {
            return notes;
        }
        String figures = ratioName + " " + bound.sign() + ratioText(ratio(o)) + " and efficiency " + bound.sign()
                + efficiencyText(efficiency(o));
        notes.add(o.name() + ": " + figures
                + switch (bound) {
                    case LOWER -> " are lower bounds too, as its SoAR is";
                    case UPPER -> " are upper bounds: the baseline's SoAR, which they divide by, is a lower bound";
                    default ->
                        " have bounds on both sides: its SoAR and the baseline's are both lower bounds, so the true "
                                + ratioName + " may be higher or lower";
                });
        return notes;
    }

    /** The SoAR as the table and the chart print it, "≥ " before a lower bound. */
    static String soarText(Outcome o) {
        return (o.lowerBound() ? "≥ " : "") + String.format(Locale.ROOT, "%,.0f", o.soar());
    }

    private static String ratioText(double r) {
        return String.format(Locale.ROOT, "%.2f", r);
    }

    static String efficiencyText(double e) {
        return String.format(Locale.ROOT, "%.0f %%", 100 * e);
    }

    /** One node's means at the SoAR experiment, for the table. */
    static String use(NodeResult n) {
        List<String> parts = new ArrayList<>();
        if (n.busyCores() != null && n.busyCores().mean() != null) {
            parts.add(String.format(
                    Locale.ROOT, "CPU %.2f of %d cores", n.busyCores().mean(), n.cpus()));
        }
        if (n.diskBusyPct() != null && n.diskBusyPct().mean() != null) {
            parts.add(String.format(
                    Locale.ROOT, "disk busy %.0f %%", n.diskBusyPct().mean()));
        }
        if (n.netRxBytesPerS() != null
                && n.netRxBytesPerS().mean() != null
                && n.netTxBytesPerS() != null
                && n.netTxBytesPerS().mean() != null) {
            parts.add(String.format(
                    Locale.ROOT,
                    "network in %.2f / out %.2f MB/s",
                    n.netRxBytesPerS().mean() / 1e6,
                    n.netTxBytesPerS().mean() / 1e6));
        }
        if (n.memUsedBytes() != null && n.memUsedBytes().mean() != null) {
            parts.add(String.format(
                    Locale.ROOT, "memory %.2f GB used", n.memUsedBytes().mean() / 1e9));
        }
        if (n.missingSeconds() > 0) {
            parts.add(n.missingSeconds() + " seconds without an answer");
        }
        return parts.isEmpty() ? "no figures" : String.join(", ", parts);
    }

    /**
     * SoAR against nodes with the ideal line through the baseline's SoAR (N/N₁ times it for speedup, level for
     * scaleup), as the paper's figures 9 and 10 plot them; failed configurations are left out.
     */
    public String svg() {
        return ScaleChart.svg(this);
    }
}
