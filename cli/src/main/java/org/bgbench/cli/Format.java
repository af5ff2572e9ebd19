package org.bgbench.cli;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Number and setting formats for human output. */
final class Format {
    private Format() {}

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    static String seconds(double s) {
        return String.format(Locale.ROOT, "%.1f s", s);
    }

    /** Settings as {@code key=value} pairs separated by spaces, in the map's order, e.g. {@code counts=query}. */
    static String settings(Map<String, String> settings) {
        return settings.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }
}
