package org.bgbench.scaling.speedup;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import org.bgbench.rating.Svg;
import org.bgbench.scaling.speedup.ScaleReport.Outcome;

/**
 * {@code scale.svg}: SoAR against nodes with the ideal line through the baseline's SoAR, as the scalability paper's
 * figures 9 and 10 plot them; a SoAR that is only a lower bound, and a ratio bounded by one, carry their sign.
 */
final class ScaleChart {
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
    static String svg(ScaleReport r) {
        ScaleMode mode = r.mode();
        String store = r.store();
        String sla = r.sla();
        List<Outcome> outcomes = r.outcomes();
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
                "SLA " + sla + (r.warnings().isEmpty() ? "" : " — see the warnings") + legend(r),
                null);
        List<Outcome> rated =
                outcomes.stream().filter(o -> o.rated() && o.soar() != null).toList();
        int maxNodes = outcomes.stream().mapToInt(Outcome::nodes).max().orElse(1);
        double maxSoar = rated.stream().mapToDouble(Outcome::soar).max().orElse(0);
        Outcome b = r.baseline();
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
                        .append(esc(o.name() + ": SoAR " + ScaleReport.soarText(o) + " at T=" + o.threads()
                                + (o.lowerBound() ? " (a lower bound: " + o.lowerBoundReason() + ")" : "")))
                        .append("</title></circle>\n");
                Double e = r.efficiency(o);
                RatioBound bound = r.ratioBound(o);
                text(
                        s,
                        px + 7,
                        py - 7,
                        "start",
                        11,
                        null,
                        o.name()
                                + (o.lowerBound() ? " " + ScaleReport.soarText(o) : "")
                                + (e == null ? "" : " (" + bound.sign() + ScaleReport.efficiencyText(e) + ")"),
                        "#333");
            }
        }
        s.append("</svg>\n");
        return s.toString();
    }

    /** What the chart's signs mean, those it shows: nothing when every SoAR is exact. */
    private static String legend(ScaleReport r) {
        List<String> signs = new ArrayList<>();
        if (r.outcomes().stream().anyMatch(Outcome::lowerBound)) {
            signs.add("≥ a lower bound");
        }
        if (r.outcomes().stream().anyMatch(o -> r.ratioBound(o) == RatioBound.UPPER)) {
            signs.add("≤ an upper bound");
        }
        if (r.outcomes().stream().anyMatch(o -> r.ratioBound(o) == RatioBound.BOTH_SIDES)) {
            signs.add("~ bounds on both sides");
        }
        return signs.isEmpty() ? "" : " — " + String.join(", ", signs);
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

    private static String esc(String s) {
        return Svg.esc(s);
    }

    private ScaleChart() {}
}
