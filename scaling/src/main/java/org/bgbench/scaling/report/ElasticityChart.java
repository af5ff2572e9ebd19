package org.bgbench.scaling.report;

import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import org.bgbench.rating.Svg;
import org.bgbench.scaling.elasticity.ElasticityResult;
import org.bgbench.scaling.elasticity.Growth;
import org.bgbench.scaling.elasticity.SetPoint;

/**
 * The elasticity paper's plot (its figures 5 to 12) as SVG: the mean request-set time over wall time with symmetric
 * standard-deviation bars, the baseline's margin lines (its mean ± the median delta time), and the moments the nodes
 * were added, their data settled and the store was stable again.
 */
public final class ElasticityChart {
    private static final int W = 900;
    private static final int H = 420;
    private static final int L = 70;
    private static final int R = 20;
    private static final int T = 30;
    private static final int B = 50;

    private ElasticityChart() {}

    public static String svg(ElasticityResult r, String title) {
        List<SetPoint> ps = r.points();
        double xMax = Math.max(1, ps.isEmpty() ? 1 : ps.get(ps.size() - 1).end());
        double yMax = 0;
        for (SetPoint p : ps) {
            yMax = Math.max(yMax, p.mean() + p.sd());
        }
        yMax = yMax <= 0 ? 1 : yMax * 1.1;
        double ym = yMax;
        DoubleUnaryOperator x = t -> L + t / xMax * (W - L - R);
        DoubleUnaryOperator y = v -> H - B - v / ym * (H - T - B);
        StringBuilder s = new StringBuilder();
        s.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n",
                W,
                H));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\">%s</text>%n", L, esc(title)));
        s.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
                L,
                H - B,
                W - R,
                H - B));
        s.append(String.format(
                Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", L, T, L, H - B));
        for (int i = 0; i <= 5; i++) {
            double v = ym * i / 5;
            double t = xMax * i / 5;
            s.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>%n",
                    L - 6,
                    y.applyAsDouble(v) + 4,
                    v));
            s.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f</text>%n",
                    x.applyAsDouble(t),
                    H - B + 16,
                    t));
        }
        s.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">wall time (s)</text>%n",
                (L + W - R) / 2,
                H - 10));
        s.append(String.format(
                Locale.ROOT,
                "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" "
                        + "text-anchor=\"middle\">request-set time (s)</text>%n",
                (T + H - B) / 2,
                (T + H - B) / 2));
        List<SetPoint> base =
                ps.stream().filter(p -> p.phase() == SetPoint.Phase.BASELINE).toList();
        if (r.medianDelta() != null && !base.isEmpty()) {
            double av = base.stream().mapToDouble(SetPoint::mean).average().orElse(0);
            for (double v : new double[] {av - r.medianDelta(), av + r.medianDelta()}) {
                s.append(String.format(
                        Locale.ROOT,
                        "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#c33\" "
                                + "stroke-width=\"0.6\"/>%n",
                        L,
                        y.applyAsDouble(v),
                        W - R,
                        y.applyAsDouble(v)));
            }
        }
        for (Growth.Step st : r.steps()) {
            mark(s, x.applyAsDouble(st.start()), "add", "#2a7");
        }
        if (r.settledAt() != null) {
            mark(s, x.applyAsDouble(r.settledAt()), "settled", "#888");
        }
        if (r.stableAt() != null) {
            mark(s, x.applyAsDouble(r.stableAt()), "stable", "#27c");
        }
        StringBuilder line = new StringBuilder();
        for (SetPoint p : ps) {
            double px = x.applyAsDouble(p.t());
            line.append(line.isEmpty() ? "" : " ")
                    .append(String.format(Locale.ROOT, "%.1f,%.1f", px, y.applyAsDouble(p.mean())));
            s.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c33\"/>%n",
                    px,
                    y.applyAsDouble(Math.max(0, p.mean() - p.sd())),
                    px,
                    y.applyAsDouble(p.mean() + p.sd())));
            s.append(String.format(
                    Locale.ROOT,
                    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#114\"><title>%s: "
                            + "%.4f s ± %.4f</title></circle>%n",
                    px,
                    y.applyAsDouble(p.mean()),
                    p.phase().label(),
                    p.mean(),
                    p.sd()));
        }
        s.append("<polyline fill=\"none\" stroke=\"#114\" stroke-width=\"1.2\" points=\"")
                .append(line)
                .append("\"/>\n</svg>\n");
        return s.toString();
    }

    private static void mark(StringBuilder s, double px, String label, String colour) {
        s.append(String.format(
                Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                        + "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" fill=\"%s\">%s</text>%n",
                px,
                T,
                px,
                H - B,
                colour,
                px + 3,
                T + 12,
                colour,
                label));
    }

    private static String esc(String t) {
        return Svg.esc(t);
    }
}
