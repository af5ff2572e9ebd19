package org.bgbench.rating;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bgbench.model.Durations;

/**
 * What one experiment observed, as the {@link ExperimentRunner} reports it.
 *
 * <p>{@code actions} counts the actions that completed, {@code errors} those that failed; the error rate is
 * {@code errors / (actions + errors)}. {@code withinBetaPct} should count a failed action as not within β (the
 * measurement module's {@code withinBetaPctCountingErrors}), so that errors weigh against α as well as against the
 * allowed error rate. {@code unpredictablePct} is the percentage of validated reads that observed unpredictable data
 * (0 when validation is off or no read was checked). An experiment whose store stopped answering is
 * {@code incomplete} (actions stuck when it ended, seconds in which nothing returned): it fails the SLA whatever its
 * figures, which describe only what returned.
 *
 * @param throughput       completed actions per second over the measured interval
 * @param withinBetaPct    percentage of actions that finished within β, 0–100
 * @param unpredictablePct percentage of validated reads that observed unpredictable data, 0–100
 * @param errors           actions that failed with an error
 * @param actions          actions that completed
 * @param seconds          length of the measured interval (warm-up excluded)
 * @param incomplete       why the experiment is incomplete, in words, or null when it is not
 * @param validationIncomplete why validation is incomplete, or null when it is complete (or off)
 */
public record Measurement(
        double throughput,
        double withinBetaPct,
        double unpredictablePct,
        long errors,
        long actions,
        double seconds,
        String incomplete,
        String validationIncomplete) {
    /** Tolerance of the SLA comparisons, so that 95 % computed as 94.99999999999999 still meets α = 95 %. */
    private static final double EPSILON = 1e-9;

    public Measurement {
        check("throughput", throughput, Double.MAX_VALUE);
        check("withinBetaPct", withinBetaPct, 100);
        check("unpredictablePct", unpredictablePct, 100);
        check("seconds", seconds, Double.MAX_VALUE);
        if (errors < 0 || actions < 0) {
            throw new IllegalArgumentException(
                    "errors and actions cannot be negative, got errors=" + errors + ", actions=" + actions);
        }
        if (incomplete != null && incomplete.isBlank()) {
            incomplete = null;
        }
        if (validationIncomplete != null && validationIncomplete.isBlank()) {
            validationIncomplete = null;
        }
    }

    /** A complete experiment. */
    public Measurement(
            double throughput,
            double withinBetaPct,
            double unpredictablePct,
            long errors,
            long actions,
            double seconds) {
        this(throughput, withinBetaPct, unpredictablePct, errors, actions, seconds, null, null);
    }

    /** Percentage of the issued actions that failed, 0 when none was issued. */
    public double errorPct() {
        long issued = actions + errors;
        return issued == 0 ? 0 : errors * 100.0 / issued;
    }

    /** Whether this experiment meets the SLA (dissertation 7.1); see {@link #failures(Sla)}. */
    public boolean succeeds(Sla sla) {
        return failures(sla).isEmpty();
    }

    /**
     * Why this experiment does not meet the SLA, one sentence per violated criterion; empty when it does. An
     * experiment in which no action completed fails: it shows nothing about the store; so does an incomplete one.
     */
    public List<String> failures(Sla sla) {
        List<String> f = new ArrayList<>();
        if (incomplete != null) {
            f.add("the experiment is incomplete: " + incomplete);
        }
        if (actions == 0) {
            f.add("no action completed");
        }
        if (withinBetaPct + EPSILON < sla.alphaPct()) {
            f.add(String.format(
                    Locale.ROOT,
                    "%s%% of actions within β=%s, α requires %s%%",
                    distinct(withinBetaPct, sla.alphaPct()),
                    Durations.format(sla.beta()),
                    num(sla.alphaPct())));
        }
        if (validationIncomplete != null) {
            f.add("validation incomplete, so the unpredictable reads are not known: " + validationIncomplete);
        } else if (unpredictablePct > sla.tauPct() + EPSILON) {
            f.add(String.format(
                    Locale.ROOT,
                    "%s%% of reads unpredictable, τ allows %s%%",
                    distinct(unpredictablePct, sla.tauPct()),
                    num(sla.tauPct())));
        }
        if (errors > 0 && errorPct() > sla.maxErrorPct() + EPSILON) {
            f.add(
                    sla.maxErrorPct() == 0
                            ? Figures.of(errors) + (errors == 1 ? " action" : " actions")
                                    + " failed with an error, the SLA allows none"
                            : String.format(
                                    Locale.ROOT,
                                    "%,d actions (%s%%) failed with an error, the SLA allows %s%%",
                                    errors,
                                    distinct(errorPct(), sla.maxErrorPct()),
                                    num(sla.maxErrorPct())));
        }
        return f;
    }

    /** JSON-friendly form with snake_case keys. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("throughput", throughput);
        m.put("within_beta_pct", withinBetaPct);
        m.put("unpredictable_pct", unpredictablePct);
        m.put("errors", errors);
        m.put("error_pct", errorPct());
        m.put("actions", actions);
        m.put("seconds", seconds);
        m.put("incomplete", incomplete);
        m.put("validation_incomplete", validationIncomplete);
        return m;
    }

    /** Reads the keys {@link #toMap()} writes (numbers of any type, e.g. as Jackson reads them). */
    public static Measurement fromMap(Map<String, ?> m) {
        return new Measurement(
                MapValues.number(m, "throughput").doubleValue(),
                MapValues.number(m, "within_beta_pct").doubleValue(),
                MapValues.number(m, "unpredictable_pct").doubleValue(),
                MapValues.number(m, "errors").longValue(),
                MapValues.number(m, "actions").longValue(),
                MapValues.number(m, "seconds").doubleValue(),
                m.get("incomplete") instanceof String s ? s : null,
                m.get("validation_incomplete") instanceof String v ? v : null);
    }

    private static void check(String name, double v, double max) {
        if (!(v >= 0 && v <= max)) {
            throw new IllegalArgumentException(
                    name + " must be a finite number from 0 to " + (max == 100 ? "100" : "∞") + ", got " + v);
        }
    }

    /** {@code v} with enough digits that it does not read as equal to {@code limit}. */
    private static String distinct(double v, double limit) {
        String s = num(v);
        for (int digits = 3; s.equals(num(limit)) && digits <= 12; digits++) {
            s = new BigDecimal(v)
                    .round(new MathContext(digits + 2))
                    .stripTrailingZeros()
                    .toPlainString();
        }
        return s;
    }

    static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.1f" : Math.abs(v) >= 1 ? "%.2f" : "%.4g", v);
        return s.contains(".") && !s.contains("e") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
