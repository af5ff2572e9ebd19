package org.bgbench.scaling.speedup;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.bgbench.measurement.NodeResult;
import org.bgbench.rating.Svg;

/**
 * What {@code bg scale} found: each configuration's SoAR under the one SLA, its ratio to the baseline's (speedup
 * SoAR(N)/SoAR(N₁), scaleup SoAR(N·size, N)/SoAR(size, N₁); scalability paper E.2.1, E.2.2), the ideal ratio, the
 * efficiency ratio/ideal, and its bottleneck. {@link #toMap()} is {@code scale.json}, {@link #svg()} {@code scale.svg},
 * {@link #table()} the printed table.
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
         * @param rated      whether its rating finished
         * @param soar       SoAR in actions/s (null when it failed)
         * @param threads    T at SoAR (null when it failed)
         * @param soarStatus the rating's status of the SoAR (confirmed, unconfirmed, zero, …)
         * @param error      why it failed, or null
         */
        public record Rating(boolean rated, Double soar, Integer threads, String soarStatus, String error) {
            /** A rating that failed for {@code error}. */
            public static Rating failed(String error) {
                return new Rating(false, null, null, null, error);
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

        public Double soar() {
            return rating.soar();
        }

        public Integer threads() {
            return rating.threads();
        }

        public String soarStatus() {
            return rating.soarStatus();
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
            c.put("ratio", ratio(o));
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

    /** The printed table, one line per configuration, then the bottlenecks and warnings. */
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
            s.append(String.format(
                    Locale.ROOT,
                    "%-16s %5d %,10d %12s %6s %9s %6.2f %10s  %s%n",
                    o.name(),
                    o.nodes(),
                    o.members(),
                    o.soar() == null ? "-" : String.format(Locale.ROOT, "%,.0f", o.soar()),
                    o.threads() == null ? "-" : o.threads().toString(),
                    r == null ? "-" : String.format(Locale.ROOT, "%.2f", r),
                    ideal(o),
                    e == null ? "-" : String.format(Locale.ROOT, "%.0f %%", 100 * e),
                    o.rated()
                            ? "rated" + (o.soarStatus() == null ? "" : " (" + o.soarStatus() + ")")
                            : "failed: " + o.error()));
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

    private static final int W = 760;
    private static final int H = 460;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final int TOP = 60;
    private static final int BOTTOM = 70;

    /**
     * SoAR against nodes with the ideal line through the baseline's SoAR (N/N₁ times it for speedup, level for
     * scaleup), as the paper's figures 9 and 10 plot them; failed configurations are left out.
     */
    public String svg() {
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(W)
                .append("\" height=\"")
                .append(H)
                .append("\" viewBox=\"0 0 ")
                .append(W)
                .append(' ')
                .append(H)
                .append("\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\" role=\"img\">\n");
        String title = "SoAR " + mode.label() + " of " + store;
        s.append("<title>").append(esc(title)).append("</title>\n");
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        text(s, W / 2.0, 24, "middle", 16, "bold", title, null);
        text(
                s,
                W / 2.0,
                44,
                "middle",
                12,
                null,
                "SLA " + sla + (warnings.isEmpty() ? "" : " — see the warnings"),
                null);
        List<Outcome> rated =
                outcomes.stream().filter(o -> o.rated() && o.soar() != null).toList();
        int maxNodes = outcomes.stream().mapToInt(Outcome::nodes).max().orElse(1);
        double maxSoar = rated.stream().mapToDouble(Outcome::soar).max().orElse(0);
        Outcome b = baseline();
        boolean idealLine = b.rated() && b.soar() != null && b.soar() > 0;
        if (idealLine) {
            maxSoar = Math.max(maxSoar, b.soar() * mode.ideal(maxNodes, b.nodes()));
        }
        final double top = maxSoar <= 0 ? 1 : niceCeiling(maxSoar * 1.05);
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        double xMax = maxNodes + Math.max(1, maxNodes * 0.05);
        DoubleUnaryOperator x = n -> LEFT + pw * n / xMax;
        DoubleUnaryOperator y = v -> TOP + ph - ph * v / top;
        s.append("<g stroke=\"#cccccc\">\n");
        for (int i = 0; i <= 5; i++) {
            s.append(line(LEFT, y.applyAsDouble(top * i / 5), LEFT + pw, y.applyAsDouble(top * i / 5)));
        }
        s.append("</g>\n");
        for (int i = 0; i <= 5; i++) {
            double v = top * i / 5;
            text(s, LEFT - 8, y.applyAsDouble(v) + 4, "end", 11, null, String.format(Locale.ROOT, "%,.0f", v), "#333");
        }
        for (int n : ticks(maxNodes)) {
            text(s, x.applyAsDouble(n), TOP + ph + 18, "middle", 11, null, Integer.toString(n), "#333");
        }
        s.append("<line x1=\"")
                .append(LEFT)
                .append("\" y1=\"")
                .append(TOP + ph)
                .append("\" x2=\"")
                .append(LEFT + pw)
                .append("\" y2=\"")
                .append(TOP + ph)
                .append("\" stroke=\"#333\"/>\n");
        text(s, LEFT + pw / 2.0, H - 24, "middle", 12, null, "nodes (N)", null);
        text(
                s,
                20,
                TOP + ph / 2.0,
                "middle",
                12,
                null,
                "SoAR (actions/s)",
                null,
                "rotate(-90 20 " + f(TOP + ph / 2.0) + ")");
        if (idealLine) {
            s.append("<polyline fill=\"none\" stroke=\"#9e9e9e\" stroke-dasharray=\"6 4\" stroke-width=\"1.5\" "
                            + "points=\"")
                    .append(f(x.applyAsDouble(b.nodes())))
                    .append(',')
                    .append(f(y.applyAsDouble(b.soar())))
                    .append(' ')
                    .append(f(x.applyAsDouble(maxNodes)))
                    .append(',')
                    .append(f(y.applyAsDouble(b.soar() * mode.ideal(maxNodes, b.nodes()))))
                    .append("\"/>\n");
            text(
                    s,
                    x.applyAsDouble(maxNodes) - 4,
                    y.applyAsDouble(b.soar() * mode.ideal(maxNodes, b.nodes())) - 8,
                    "end",
                    11,
                    null,
                    "ideal",
                    "#757575");
        }
        if (!rated.isEmpty()) {
            s.append("<polyline fill=\"none\" stroke=\"#ef6c00\" stroke-width=\"2\" points=\"");
            for (Outcome o : rated.stream()
                    .sorted(Comparator.comparingInt(Outcome::nodes))
                    .toList()) {
                s.append(f(x.applyAsDouble(o.nodes())))
                        .append(',')
                        .append(f(y.applyAsDouble(o.soar())))
                        .append(' ');
            }
            s.append("\"/>\n");
            for (Outcome o : rated) {
                double px = x.applyAsDouble(o.nodes());
                double py = y.applyAsDouble(o.soar());
                s.append("<circle cx=\"")
                        .append(f(px))
                        .append("\" cy=\"")
                        .append(f(py))
                        .append("\" r=\"4.5\" fill=\"#ef6c00\"><title>")
                        .append(esc(o.name() + ": SoAR " + String.format(Locale.ROOT, "%,.0f", o.soar()) + " at T="
                                + o.threads()))
                        .append("</title></circle>\n");
                Double e = efficiency(o);
                text(
                        s,
                        px + 7,
                        py - 7,
                        "start",
                        11,
                        null,
                        o.name() + (e == null ? "" : String.format(Locale.ROOT, " (%.0f %%)", 100 * e)),
                        "#333");
            }
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static List<Integer> ticks(int max) {
        int step = Math.max(1, (int) Math.ceil(max / 10.0));
        List<Integer> t = new ArrayList<>();
        for (int n = step == 1 ? 1 : step; n <= max; n += step) {
            t.add(n);
        }
        return t;
    }

    private static double niceCeiling(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String line(double x1, double y1, double x2, double y2) {
        return "<line x1=\"" + f(x1) + "\" y1=\"" + f(y1) + "\" x2=\"" + f(x2) + "\" y2=\"" + f(y2) + "\"/>\n";
    }

    private static void text(
            StringBuilder s,
            double x,
            double y,
            String anchor,
            int size,
            String weight,
            String content,
            String colour) {
        text(s, x, y, anchor, size, weight, content, colour, null);
    }

    private static void text(
            StringBuilder s,
            double x,
            double y,
            String anchor,
            int size,
            String weight,
            String content,
            String colour,
            String transform) {
        Svg.text(s, x, y, anchor, size, weight, content, colour, transform);
    }

    private static String f(double v) {
        return Svg.num(v);
    }

    static String esc(String s) {
        return Svg.esc(s);
    }
}
