package org.bgbench.cli;

import java.util.Locale;
import java.util.Map;

/**
 * The cluster run's χ² line: the global socialite distribution against the centralised one (dissertation 4.3.1), as
 * planned and as the workers' shares made it, beside the noise floor (M−1)/O that {@code bg dzipf} prints, so a small
 * χ² can be read against what sampling alone would show.
 */
final class ChiSquareLine {
    private ChiSquareLine() {}

    /** The line for a merged result's {@code config} (its {@code chi_square_*} keys), without a line end. */
    static String of(int workers, Map<String, Object> config) {
        String line = String.format(
                Locale.ROOT,
                "Workers  %d, χ² of the global distribution vs the centralised one: %s (planned %s)",
                workers,
                number(config.get("chi_square_measured")),
                number(config.get("chi_square_planned")));
        if (config.get("chi_square_noise_floor") instanceof Number floor
                && config.get("chi_square_requests") instanceof Number requests) {
            line += String.format(
                    Locale.ROOT,
                    "; noise floor (M−1)/O %s for O = %,d requests: sampling noise alone gives about that much",
                    number(floor),
                    requests.longValue());
        }
        return line;
    }

    private static String number(Object x) {
        return x instanceof Number n ? String.format(Locale.ROOT, "%.4g", n.doubleValue()) : "-";
    }
}
