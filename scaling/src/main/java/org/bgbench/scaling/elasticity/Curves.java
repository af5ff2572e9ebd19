package org.bgbench.scaling.elasticity;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.analysis.UnivariateFunction;
import org.apache.commons.math3.analysis.interpolation.LinearInterpolator;
import org.apache.commons.math3.analysis.interpolation.SplineInterpolator;
import org.bgbench.model.InvalidParameterException;

/**
 * A timeline's points as a curve over wall time, and the area where it rises above a straight ramp. The elasticity
 * paper (section 5.1) interpolates the measured points with cubic splines and integrates them with a recursive
 * adaptive Simpson quadrature; BG does the same by default ({@link Interpolation#SPLINE}, Commons Math's natural cubic
 * spline) and offers straight lines between the points ({@link Interpolation#LINEAR}), whose areas can be checked by
 * hand.
 */
public final class Curves {
    /** How the points are joined. */
    public enum Interpolation {
        SPLINE,
        LINEAR;

        public static Interpolation parse(String option, String value) {
            return switch (value == null ? "" : value.toLowerCase(Locale.ROOT)) {
                case "spline" -> SPLINE;
                case "linear" -> LINEAR;
                default ->
                    throw new InvalidParameterException(option, "expected spline or linear, got '" + value + "'");
            };
        }
    }

    private static final double TOLERANCE = 1e-9;
    private static final int MAX_DEPTH = 40;

    private Curves() {}

    /** The curve through each point's (t, value); fewer than three points are joined by straight lines. */
    public static UnivariateFunction curve(List<SetPoint> points, ToDoubleFunction<SetPoint> value, Interpolation how) {
        double[] x = points.stream().mapToDouble(SetPoint::t).toArray();
        double[] y = points.stream().mapToDouble(value).toArray();
        if (x.length == 1) {
            return t -> y[0];
        }
        UnivariateFunction f = how == Interpolation.SPLINE && x.length >= 3
                ? new SplineInterpolator().interpolate(x, y)
                : new LinearInterpolator().interpolate(x, y);
        double lo = x[0];
        double hi = x[x.length - 1];
        // Outside the measured span the curve holds its end values (Commons' functions refuse to extrapolate).
        return t -> f.value(Math.max(lo, Math.min(hi, t)));
    }

    /**
     * The area between {@code f} and the straight line from ({@code a}, {@code ya}) to ({@code b}, {@code yb}) where
     * {@code f} is above it: ∫ max(0, f − ramp) over [a, b]. The integral is split at {@code knots} (the points' t, where
     * a spline's third derivative jumps) and each piece is integrated by adaptive Simpson.
     */
    public static double areaAboveRamp(UnivariateFunction f, double a, double b, double ya, double yb, double[] knots) {
        if (!(b > a)) {
            return 0;
        }
        UnivariateFunction excess = t -> Math.max(0, f.value(t) - (ya + (yb - ya) * (t - a) / (b - a)));
        double sum = 0;
        double left = a;
        for (double k : knots) {
            if (k > left && k < b) {
                sum += simpson(excess, left, k);
                left = k;
            }
        }
        return sum + simpson(excess, left, b);
    }

    /** ∫ f over [a, b] by recursive adaptive Simpson quadrature to an absolute tolerance. */
    static double simpson(UnivariateFunction f, double a, double b) {
        double fa = f.value(a);
        double fb = f.value(b);
        double m = (a + b) / 2;
        double fm = f.value(m);
        double whole = (b - a) / 6 * (fa + 4 * fm + fb);
        return adaptive(f, a, b, fa, fm, fb, whole, TOLERANCE * Math.max(1, b - a), MAX_DEPTH);
    }

    private static double adaptive(
            UnivariateFunction f,
            double a,
            double b,
            double fa,
            double fm,
            double fb,
            double whole,
            double eps,
            int depth) {
        double m = (a + b) / 2;
        double lm = (a + m) / 2;
        double rm = (m + b) / 2;
        double flm = f.value(lm);
        double frm = f.value(rm);
        double left = (m - a) / 6 * (fa + 4 * flm + fm);
        double right = (b - m) / 6 * (fm + 4 * frm + fb);
        double diff = left + right - whole;
        if (depth <= 0 || Math.abs(diff) <= 15 * eps) {
            return left + right + diff / 15; // Richardson's correction of the two halves
        }
        return adaptive(f, a, m, fa, flm, fm, left, eps / 2, depth - 1)
                + adaptive(f, m, b, fm, frm, fb, right, eps / 2, depth - 1);
    }
}
