package org.bgbench.measurement.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.model.Kind;

/**
 * The one-line legend under the summary's tables: what each code that appeared stands for (the kinds that ran) and
 * what the columns {@code ≤β %}, {@code BG µs} and {@code noops} mean, so a reader needs no other page to read them.
 */
final class Legend {
    private Legend() {}

    /** The legend of the summary of {@code r}: the codes of the kinds it shows, then the column codes. */
    static String of(RunResult r) {
        List<String> parts = new ArrayList<>();
        codes(r.actions(), parts);
        codes(r.sessions(), parts);
        parts.add("≤β % = share within the response time β");
        parts.add("BG µs = BG's CPU per store call");
        parts.add("noops = actions with nothing to act on (e.g. no pending invitation to accept)");
        return "legend   " + String.join("; ", parts);
    }

    private static void codes(Map<String, KindResult> kinds, List<String> parts) {
        kinds.forEach((code, k) -> {
            if (SummaryPrinter.ran(k)) {
                parts.add(code + " = " + Kind.byCode(code).map(Kind::title).orElse(code));
            }
        });
    }
}
