package org.bgbench.scaling.elasticity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.analysis.UnivariateFunction;

/**
 * The elasticity paper's score (its section 2.1, figure 2): (A + B) / ((Rt1 + Rt2) · (Av1 + Av2)), lower is better.
 * Between the add moment and the stable moment, A is the area of the mean set time above the straight ramp from Av1
 * to Av2 (the ramp itself, the "triangle", is not counted: even a perfectly elastic store moves from one level to the
 * other), and B the area of the set times' standard deviation. BG counts B as A is counted, above the ramp from the
 * stable phases' own standard deviations (SD1 before, SD2 after), so a cluster that absorbs its new nodes without any
 * disturbance scores 0; {@code bRaw}, the whole standard-deviation area, is reported beside it. Areas are in s², Rt
 * and Av in s, so the score has no unit.
 *
 * @param elasticity the score, with B above its ramp
 * @param a          area of the set-time increase above the ramp from Av1 to Av2, s²
 * @param b          area of the standard deviation above the ramp from SD1 to SD2, s²
 * @param bRaw       area of the whole standard deviation between the add and the stable moment, s²
 * @param rt1        mean response time of one request before the add, s
 * @param rt2        the same once stable again, s
 * @param av1        mean time of a request set before the add, s
 * @param av2        the same once stable again, s
 * @param sd1        mean standard deviation of the set times before the add, s
 * @param sd2        the same once stable again, s
 */
public record ElasticityScore(double elasticity, Areas areas, Level before, Level after) {

    /**
     * The areas between the curves and the ramp from before to after.
     *
     * @param a    A, of the mean set times
     * @param b    B, of the standard deviations
     * @param bRaw the whole area under the standard deviations' curve
     */
    public record Areas(double a, double b, double bRaw) {}

    /**
     * The stable level on one side of the add.
     *
     * @param rt mean latency (Rt1, Rt2)
     * @param av mean set time (Av1, Av2)
     * @param sd standard deviation of the set times (SD1, SD2)
     */
    public record Level(double rt, double av, double sd) {}

    /**
     * The score of a timeline.
     *
     * @param before   the stable points before the add (Av1, Rt1, SD1)
     * @param timeline every point, in order (the curves are drawn through all of them)
     * @param after    the stable points after the stable moment (Av2, Rt2, SD2)
     * @param addAt    seconds since the start when the first node was added
     * @param stableAt seconds since the start when the cluster was stable again
     */
    public static ElasticityScore of(
            List<SetPoint> before,
            List<SetPoint> timeline,
            List<SetPoint> after,
            double addAt,
            double stableAt,
            Curves.Interpolation how) {
        if (before.isEmpty() || after.isEmpty()) {
            throw new IllegalArgumentException(
                    "the score needs stable points before the add and after the stable moment");
        }
        double av1 = mean(before, SetPoint::mean);
        double av2 = mean(after, SetPoint::mean);
        double rt1 = mean(before, SetPoint::meanLatency);
        double rt2 = mean(after, SetPoint::meanLatency);
        double sd1 = mean(before, SetPoint::sd);
        double sd2 = mean(after, SetPoint::sd);
        double[] knots = timeline.stream().mapToDouble(SetPoint::t).toArray();
        UnivariateFunction means = Curves.curve(timeline, SetPoint::mean, how);
        UnivariateFunction sds = Curves.curve(timeline, SetPoint::sd, how);
        double a = Curves.areaAboveRamp(means, addAt, stableAt, av1, av2, knots);
        double b = Curves.areaAboveRamp(sds, addAt, stableAt, sd1, sd2, knots);
        double bRaw = Curves.areaAboveRamp(sds, addAt, stableAt, 0, 0, knots);
        double denominator = (rt1 + rt2) * (av1 + av2);
        return new ElasticityScore(
                denominator > 0 ? (a + b) / denominator : Double.NaN,
                new Areas(a, b, bRaw),
                new Level(rt1, av1, sd1),
                new Level(rt2, av2, sd2));
    }

    /** The score with the whole standard-deviation area (bRaw) in place of B. */
    public double elasticityWithRawB() {
        return (a() + bRaw()) / ((rt1() + rt2()) * (av1() + av2()));
    }

    private static double mean(List<SetPoint> points, ToDoubleFunction<SetPoint> f) {
        return points.stream().mapToDouble(f).average().orElse(Double.NaN);
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("elasticity", elasticity);
        m.put("elasticityWithRawB", elasticityWithRawB());
        m.put("a", a());
        m.put("b", b());
        m.put("bRaw", bRaw());
        m.put("rt1", rt1());
        m.put("rt2", rt2());
        m.put("av1", av1());
        m.put("av2", av2());
        m.put("sd1", sd1());
        m.put("sd2", sd2());
        return m;
    }

    public double a() {
        return areas.a();
    }

    public double b() {
        return areas.b();
    }

    public double bRaw() {
        return areas.bRaw();
    }

    public double rt1() {
        return before.rt();
    }

    public double rt2() {
        return after.rt();
    }

    public double av1() {
        return before.av();
    }

    public double av2() {
        return after.av();
    }

    public double sd1() {
        return before.sd();
    }

    public double sd2() {
        return after.sd();
    }
}
