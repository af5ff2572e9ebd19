package org.bgbench.rating;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Pattern;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;

/**
 * The service level agreement a rating holds a store to (dissertation ch. 1 and 7.3): at least
 * {@code alphaPct} % of actions finish within {@code beta}, at most {@code tauPct} % of the validated reads observe
 * unpredictable data, at most {@code maxErrorPct} % of actions fail, sustained for {@code duration} (Δ).
 *
 * <p>All percentages are percentages (95 means ninety-five percent), never fractions. The default allowed error rate
 * is 0: any failed action fails an experiment.
 *
 * <p>Text form {@code α:β:τ:Δ[:errors]}, e.g. {@code 95%:100ms:0.01%:10m} or {@code 99%:20ms:0%:1h:0.1%}; properties
 * form {@code sla.alpha}, {@code sla.beta}, {@code sla.tau}, {@code sla.duration}, {@code sla.errors} (or one key
 * {@code sla} holding the text form).
 *
 * @param alphaPct    α, the minimum percentage of actions that finish within β, 0–100
 * @param beta        β, the response time, &gt; 0 and shorter than Δ
 * @param tauPct      τ, the maximum percentage of reads that may observe unpredictable data, 0–100
 * @param duration    Δ, how long the SLA must hold; the final confirmation run has this length
 * @param maxErrorPct the maximum percentage of actions that may fail with an error, 0–100 (0: none may)
 */
public record Sla(double alphaPct, Duration beta, double tauPct, Duration duration, double maxErrorPct) {
    /** Properties key of the whole SLA in text form. */
    public static final String KEY = "sla";

    public static final String ALPHA = "sla.alpha";
    public static final String BETA = "sla.beta";
    public static final String TAU = "sla.tau";
    public static final String DURATION = "sla.duration";
    public static final String ERRORS = "sla.errors";

    private static final String FORM = "α:β:τ:Δ[:errors], e.g. 95%:100ms:0.01%:10m";
    private static final String DURATIONS = "100ms, 30s, 10m, 1h or PT10M";
    private static final Pattern NUMBER = Pattern.compile("(\\d+(\\.\\d*)?|\\.\\d+)");

    public Sla {
        Objects.requireNonNull(beta, "beta");
        Objects.requireNonNull(duration, "duration");
        checkPercent(ALPHA, "α", alphaPct);
        checkPercent(TAU, "τ", tauPct);
        checkPercent(ERRORS, "the allowed error rate", maxErrorPct);
        if (beta.isNegative() || beta.isZero()) {
            throw new InvalidParameterException(
                    BETA, "β must be a positive response time such as 100ms, got " + Durations.format(beta));
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new InvalidParameterException(
                    DURATION, "Δ must be a positive duration such as 10m, got " + Durations.format(duration));
        }
        checkBetaBelowDelta(BETA, beta, duration);
    }

    /** An SLA in which no action may fail. */
    public Sla(double alphaPct, Duration beta, double tauPct, Duration duration) {
        this(alphaPct, beta, tauPct, duration, 0);
    }

    /** Parses {@code α:β:τ:Δ[:errors]}; errors name the parameter {@value #KEY}. */
    public static Sla parse(String text) {
        return parse(KEY, text);
    }

    /**
     * Parses {@code α:β:τ:Δ[:errors]}, e.g. {@code 95%:100ms:0.01%:10m}. Percent signs are optional (numbers are
     * percentages); β and Δ need a unit ({@code ms}, {@code s}, {@code m}, {@code h}, or ISO-8601 {@code PT10M}).
     *
     * @param parameter the name of the option or key the text came from, used in error messages
     * @throws InvalidParameterException naming {@code parameter}, the part and what is accepted
     */
    public static Sla parse(String parameter, String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidParameterException(parameter, "expected an SLA " + FORM + ", got nothing");
        }
        String[] parts = text.trim().split(":", -1);
        if (parts.length < 4 || parts.length > 5) {
            throw new InvalidParameterException(
                    parameter, "expected 4 or 5 parts " + FORM + ", got " + parts.length + " in '" + text + "'");
        }
        double alpha = alpha(parameter + " (α, 1st part)", parts[0]);
        Duration beta = duration(parameter + " (β, 2nd part)", "β", parts[1]);
        double tau = percent(parameter + " (τ, 3rd part)", "τ", parts[2]);
        Duration delta = duration(parameter + " (Δ, 4th part)", "Δ", parts[3]);
        double errors =
                parts.length == 5 ? percent(parameter + " (errors, 5th part)", "the allowed error rate", parts[4]) : 0;
        checkBetaBelowDelta(parameter + " (β, 2nd part)", beta, delta);
        return new Sla(alpha, beta, tau, delta, errors);
    }

    /**
     * Reads an SLA from properties: either {@value #KEY} in text form or {@value #ALPHA}, {@value #BETA},
     * {@value #TAU}, {@value #DURATION} and optionally {@value #ERRORS} (not both).
     *
     * @throws InvalidParameterException naming the key that is missing or wrong
     */
    public static Sla fromProperties(Map<String, String> properties) {
        String whole = trimmed(properties.get(KEY));
        boolean anyPart = properties.containsKey(ALPHA)
                || properties.containsKey(BETA)
                || properties.containsKey(TAU)
                || properties.containsKey(DURATION)
                || properties.containsKey(ERRORS);
        if (whole != null) {
            if (anyPart) {
                throw new InvalidParameterException(
                        KEY,
                        "give either " + KEY + " or the keys " + ALPHA + ", " + BETA + ", " + TAU + ", " + DURATION
                                + " (and " + ERRORS + "), not both");
            }
            return parse(KEY, whole);
        }
        double alpha = alpha(ALPHA, required(properties, ALPHA, "95%"));
        Duration beta = duration(BETA, "β", required(properties, BETA, "100ms"));
        double tau = percent(TAU, "τ", required(properties, TAU, "0.01%"));
        Duration delta = duration(DURATION, "Δ", required(properties, DURATION, "10m"));
        String errorText = trimmed(properties.get(ERRORS));
        double errors = errorText == null ? 0 : percent(ERRORS, "the allowed error rate", errorText);
        checkBetaBelowDelta(BETA, beta, delta);
        return new Sla(alpha, beta, tau, delta, errors);
    }

    /** {@link #fromProperties(Map)} for a {@link Properties} object. */
    public static Sla fromProperties(Properties properties) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) {
            map.put(name, properties.getProperty(name));
        }
        return fromProperties(map);
    }

    /** The properties form, readable by {@link #fromProperties(Map)}. */
    public Map<String, String> toProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(ALPHA, pct(alphaPct));
        p.put(BETA, Durations.format(beta));
        p.put(TAU, pct(tauPct));
        p.put(DURATION, Durations.format(duration));
        p.put(ERRORS, pct(maxErrorPct));
        return p;
    }

    /**
     * Checks the duration δ of the search's experiments against Δ [dissertation 7.1, 7.3]: δ must be positive and
     * not longer than Δ.
     *
     * @param parameter the name δ came from, used in the error message
     * @throws InvalidParameterException naming {@code parameter}
     */
    public void checkExperimentDuration(String parameter, Duration experimentDuration) {
        if (experimentDuration == null || experimentDuration.isNegative() || experimentDuration.isZero()) {
            throw new InvalidParameterException(
                    parameter,
                    "δ, the duration of the search's experiments, must be a "
                            + "positive duration such as 30s (at most Δ = " + Durations.format(duration) + ")");
        }
        if (experimentDuration.compareTo(duration) > 0) {
            throw new InvalidParameterException(
                    parameter,
                    "δ (" + Durations.format(experimentDuration)
                            + ") must not be longer than the SLA's Δ (" + Durations.format(duration)
                            + "): the search's "
                            + "experiments are at most as long as the final confirmation run");
        }
        if (experimentDuration.compareTo(beta) <= 0) {
            throw new InvalidParameterException(
                    parameter,
                    "δ (" + Durations.format(experimentDuration) + ") must be longer than β (" + Durations.format(beta)
                            + ")");
        }
    }

    /** The text form, e.g. {@code 95%:100ms:0.01%:10m}; the error part only when errors are allowed. */
    @Override
    public String toString() {
        String s = pct(alphaPct) + ":" + Durations.format(beta) + ":" + pct(tauPct) + ":" + Durations.format(duration);
        return maxErrorPct > 0 ? s + ":" + pct(maxErrorPct) : s;
    }

    /** JSON-friendly form: {@code alpha_pct}, {@code beta_ms}, {@code tau_pct}, {@code duration_seconds}, … */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("text", toString());
        m.put("alpha_pct", alphaPct);
        m.put("beta_ms", beta.toNanos() / 1e6);
        m.put("tau_pct", tauPct);
        m.put("duration_seconds", duration.toNanos() / 1e9);
        m.put("max_error_pct", maxErrorPct);
        return m;
    }

    private static String required(Map<String, String> properties, String key, String example) {
        String v = trimmed(properties.get(key));
        if (v == null) {
            throw new InvalidParameterException(
                    key,
                    "missing: the SLA needs " + ALPHA + ", " + BETA + ", " + TAU + " and " + DURATION + " (e.g. " + key
                            + "=" + example + "), or " + KEY + "=" + FORM);
        }
        return v;
    }

    private static String trimmed(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static double alpha(String parameter, String text) {
        String t = text.trim();
        double v = percent(parameter, "α", t);
        if (!t.endsWith("%") && v > 0 && v <= 1) {
            throw new InvalidParameterException(
                    parameter,
                    "α = " + t + " is ambiguous: α is a percentage; write "
                            + BigDecimal.valueOf(v)
                                    .movePointRight(2)
                                    .stripTrailingZeros()
                                    .toPlainString()
                            + "% for that fraction, or " + t + "% if you mean under one percent");
        }
        return v;
    }

    private static double percent(String parameter, String name, String text) {
        String t = text.trim();
        String n = t.endsWith("%") ? t.substring(0, t.length() - 1).trim() : t;
        if (!NUMBER.matcher(n).matches()) {
            String sign = n.startsWith("-") ? " (it cannot be negative)" : "";
            throw new InvalidParameterException(
                    parameter,
                    name + " must be a percentage from 0 to 100 such as " + ("α".equals(name) ? "95%" : "0.01%") + sign
                            + ", got '" + text.trim() + "'");
        }
        double v = Double.parseDouble(n);
        checkPercent(parameter, name, v);
        return v;
    }

    private static void checkPercent(String parameter, String name, double v) {
        if (!(v >= 0 && v <= 100)) {
            throw new InvalidParameterException(parameter, name + " must be a percentage from 0 to 100, got " + v);
        }
    }

    private static Duration duration(String parameter, String name, String text) {
        String t = text.trim();
        if (!Durations.hasUnit(t)) {
            throw new InvalidParameterException(
                    parameter, name + " needs a unit, as in " + DURATIONS + ", got '" + t + "'");
        }
        Duration d;
        try {
            d = Durations.parse(parameter, t);
        } catch (InvalidParameterException e) {
            if (e.getMessage().contains("too long")) {
                throw e;
            }
            throw new InvalidParameterException(
                    parameter, name + " must be a duration with a unit, as in " + DURATIONS + ", got '" + t + "'");
        }
        if (d.isZero()) {
            throw new InvalidParameterException(parameter, name + " must be longer than 0, got '" + t + "'");
        }
        return d;
    }

    private static void checkBetaBelowDelta(String parameter, Duration beta, Duration delta) {
        if (beta.compareTo(delta) >= 0) {
            throw new InvalidParameterException(
                    parameter,
                    "β (" + Durations.format(beta) + ") must be shorter than Δ (" + Durations.format(delta)
                            + "): every action of a run of Δ would trivially finish within β");
        }
    }

    private static String pct(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString() + "%";
    }
}
