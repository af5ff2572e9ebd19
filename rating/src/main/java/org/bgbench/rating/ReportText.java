package org.bgbench.rating;

import java.util.Locale;
import org.bgbench.model.Durations;

/** How the report writes numbers and the SLA: thousands separators, percentages, escaped text. */
final class ReportText {
    private ReportText() {}

    static String slaText(Sla sla) {
        return "≥ " + Measurement.num(sla.alphaPct()) + "% of actions within " + Durations.format(sla.beta())
                + ", ≤ " + Measurement.num(sla.tauPct()) + "% unpredictable reads"
                + (sla.maxErrorPct() > 0 ? ", ≤ " + Measurement.num(sla.maxErrorPct()) + "% errors" : ", no errors")
                + ", for " + Durations.format(sla.duration());
    }

    static String pct(double v) {
        return Measurement.num(v) + "%";
    }

    static String thousands(double v) {
        if (v >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return Measurement.num(v);
    }

    /** Escapes text for XML and HTML content and attribute values. */
    static String esc(String s) {
        return Svg.esc(s);
    }
}
