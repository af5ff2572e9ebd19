package org.bgbench.model;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations of parameters: a number with a unit ({@code 500ms}, {@code 30s}, {@code 1.5s}, {@code 10m},
 * {@code 1h}; also {@code us}, {@code sec}, {@code min}, {@code d}), an ISO-8601 duration ({@code PT30S}), or a plain
 * number in the key's own unit (seconds unless told otherwise: USC BG's {@code maxexecutiontime} is seconds, its
 * {@code thinktime} and {@code interarrivaltime} milliseconds). Underscores in numbers are ignored.
 */
public final class Durations {
    private static final Pattern WITH_UNIT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-zµ]*)");

    private Durations() {}

    /** A duration whose plain numbers are seconds. */
    public static Duration parse(String key, String value) {
        return parse(key, value, ChronoUnit.SECONDS);
    }

    /**
     * A duration whose plain numbers are in {@code plainUnit}.
     *
     * @throws InvalidParameterException naming {@code key} when the value is not a non-negative duration
     */
    public static Duration parse(String key, String value, ChronoUnit plainUnit) {
        String v = value == null ? "" : value.trim().replace("_", "").toLowerCase(Locale.ROOT);
        if (v.startsWith("p")) {
            try {
                Duration d = Duration.parse(v.toUpperCase(Locale.ROOT));
                if (d.isNegative()) {
                    throw bad(key, value, plainUnit);
                }
                return d;
            } catch (DateTimeParseException e) {
                throw bad(key, value, plainUnit);
            }
        }
        Matcher m = WITH_UNIT.matcher(v);
        if (!m.matches()) {
            throw bad(key, value, plainUnit);
        }
        BigDecimal n = new BigDecimal(m.group(1));
        long nanosPerUnit = switch (m.group(2)) {
            case "" -> plainUnit.getDuration().toNanos();
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s", "sec", "secs", "second", "seconds" -> 1_000_000_000L;
            case "m", "min", "mins", "minute", "minutes" -> 60_000_000_000L;
            case "h", "hr", "hour", "hours" -> 3_600_000_000_000L;
            case "d", "day", "days" -> 86_400_000_000_000L;
            default -> throw bad(key, value, plainUnit);
        };
        BigDecimal nanos = n.multiply(BigDecimal.valueOf(nanosPerUnit));
        if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new InvalidParameterException(key, "duration '" + value + "' is too long");
        }
        return Duration.ofNanos(nanos.longValue());
    }

    /** Whether {@code value} carries a unit or is ISO-8601 (as opposed to a plain number). */
    public static boolean hasUnit(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return !v.isEmpty() && !v.replace("_", "").matches("\\d+(\\.\\d+)?");
    }

    private static InvalidParameterException bad(String key, String value, ChronoUnit plainUnit) {
        return new InvalidParameterException(
                key,
                "expected a duration such as 500ms, 30s, 10m, 1h, PT30S or a plain " + "number of "
                        + plainUnit.toString().toLowerCase(Locale.ROOT) + ", got '" + value + "'");
    }

    /** A compact text, e.g. {@code 500ms}, {@code 30s}, {@code 10m}, {@code 1h30m}. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        if (d.toNanosPart() % 1_000_000 != 0 || d.compareTo(Duration.ofSeconds(1)) < 0) {
            return d.toNanos() % 1_000_000 == 0 ? d.toMillis() + "ms" : d.toNanos() + "ns";
        }
        StringBuilder b = new StringBuilder();
        if (d.toHours() > 0) {
            b.append(d.toHours()).append('h');
        }
        if (d.toMinutesPart() > 0) {
            b.append(d.toMinutesPart()).append('m');
        }
        if (d.toSecondsPart() > 0 || d.toMillisPart() > 0) {
            b.append(d.toSecondsPart());
            if (d.toMillisPart() > 0) {
                b.append('.')
                        .append(String.format(Locale.ROOT, "%03d", d.toMillisPart())
                                .replaceAll("0+$", ""));
            }
            b.append('s');
        }
        return b.toString();
    }
}
