package org.bgbench.study;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** BG's duration syntax ({@code 500ms}, {@code 2s}, {@code 1m}, {@code 1h}, ISO {@code PT30S}) for study files. */
final class StudyDurations {
    private static final Pattern SHORT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)");

    private StudyDurations() {}

    /** The duration {@code text} names, or null. */
    static Duration parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SHORT.matcher(t);
        if (m.matches()) {
            double v = Double.parseDouble(m.group(1));
            long unitMs = switch (m.group(2)) {
                case "ms" -> 1;
                case "s" -> 1000;
                case "m" -> 60_000;
                default -> 3_600_000;
            };
            return Duration.ofMillis(Math.round(v * unitMs));
        }
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        try {
            return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** {@code d} as BG writes durations: whole seconds as {@code 2s}, else milliseconds. */
    static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
