package org.bgbench.cli;

import java.util.Locale;

/** Number formats for human output. */
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
}
