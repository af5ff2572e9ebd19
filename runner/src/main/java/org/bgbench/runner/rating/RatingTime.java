package org.bgbench.runner.rating;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.bgbench.rating.Experiment;
import org.bgbench.rating.Phase;
import org.bgbench.rating.RatingResult;

/**
 * The rating-time model of the dissertation, eq. 7.1 (dissertation 7.4): Λ = ζ + ω·ν + η·δ + Δ, with every term measured in
 * this rating. ζ is what this rating spent before its first experiment (loading the graph or taking the image, if it
 * had to; near 0 for a store loaded earlier), ω the resets that were not LoadFree, ν their mean time, η the search
 * experiments this rating ran (cache hits and resumed ones cost nothing), δ their requested length and Δ the measured
 * length of the confirmation runs. The model leaves out each experiment's warm-up, its validation and BG's own start,
 * which the report shows as the difference to the measured total.
 *
 * @param terms         the model's terms
 * @param searchSeconds measured seconds of the search experiments (η·δ in the model)
 * @param total         measured Λ, seconds
 * @param resetLog      the resets by kind and what RepairDB restored
 */
public record RatingTime(Terms terms, double searchSeconds, double total, ResetLog resetLog) {

    /**
     * The terms of Λ = ζ + ω·ν + η·δ + Δ.
     *
     * @param zeta    ζ, seconds
     * @param omega   ω, resets other than LoadFree
     * @param nu      ν, mean seconds of those resets (0 when there were none)
     * @param eta     η, search experiments run
     * @param delta   δ, seconds
     * @param confirm Δ, seconds of the confirmation runs
     */
    public record Terms(double zeta, int omega, double nu, int eta, double delta, double confirm) {}

    /**
     * The resets of a rating.
     *
     * @param resets       resets by kind
     * @param resetSeconds seconds spent in them by kind
     * @param repaired     relationships and comments RepairDB restored
     */
    public record ResetLog(Map<String, Integer> resets, Map<String, Double> resetSeconds, long[] repaired) {}

    public static RatingTime of(RatingResult result, RatingRunner runner, double zeta, Duration delta, double total) {
        int eta = 0;
        double search = 0;
        double confirm = 0;
        for (Experiment e : result.experiments()) {
            if (e.resumed()) {
                continue;
            }
            if (e.phase() == Phase.CONFIRMATION) {
                confirm += e.measurement().seconds();
            } else {
                eta++;
                search += e.measurement().seconds();
            }
        }
        int omega = 0;
        double resetTotal = 0;
        for (Map.Entry<String, Integer> r : runner.resets().entrySet()) {
            if (!r.getKey().equals("loadfree")) {
                omega += r.getValue();
                resetTotal += runner.resetSecondsBy().getOrDefault(r.getKey(), 0.0);
            }
        }
        Terms terms = new Terms(zeta, omega, omega == 0 ? 0 : resetTotal / omega, eta, delta.toNanos() / 1e9, confirm);
        return new RatingTime(
                terms,
                search,
                total,
                new ResetLog(Map.copyOf(runner.resets()), Map.copyOf(runner.resetSecondsBy()), runner.repaired()));
    }

    /** Λ as the model computes it from the terms. */
    public double model() {
        return zeta() + omega() * nu() + eta() * delta() + confirm();
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("total_s", total);
        m.put("model_s", model());
        m.put("zeta_s", zeta());
        m.put("omega", omega());
        m.put("nu_s", nu());
        m.put("eta", eta());
        m.put("delta_s", delta());
        m.put("confirmation_s", confirm());
        m.put("search_measured_s", searchSeconds);
        m.put("reset_s", omega() * nu());
        m.put("resets", resets());
        m.put("reset_seconds_by_kind", resetSeconds());
        m.put("repaired_relationships", repaired()[0]);
        m.put("repaired_comments", repaired()[1]);
        m.put("other_s", Math.max(0, total - zeta() - omega() * nu() - searchSeconds - confirm()));
        return m;
    }

    /** The model term by term, as the rating's summary prints it. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "Rating time Λ = ζ + ω·ν + η·δ + Δ = %.1f + %d×%.2f + %d×%.0f + %.1f = %.0f s" + " (measured %.0f s)%n",
                zeta(),
                omega(),
                nu(),
                eta(),
                delta(),
                confirm(),
                model(),
                total));
        sb.append(String.format(
                Locale.ROOT, "  ζ  %.1f s before the first experiment (load or image, if needed)%n", zeta()));
        StringBuilder kinds = new StringBuilder();
        for (Map.Entry<String, Integer> r : resets().entrySet()) {
            if (kinds.length() > 0) {
                kinds.append(", ");
            }
            kinds.append(String.format(
                    Locale.ROOT,
                    "%s %d in %.1f s",
                    r.getKey(),
                    r.getValue(),
                    resetSeconds().getOrDefault(r.getKey(), 0.0)));
        }
        sb.append(String.format(
                Locale.ROOT,
                "  ων %d resets of %.2f s on average%s%n",
                omega(),
                nu(),
                kinds.length() == 0 ? "" : " (" + kinds + ")"));
        if (repaired()[0] + repaired()[1] > 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "     RepairDB restored %,d relationships and %,d comments%n",
                    repaired()[0],
                    repaired()[1]));
        }
        sb.append(String.format(
                Locale.ROOT,
                "  ηδ %d search experiments of %.0f s (measured %.1f s)%n",
                eta(),
                delta(),
                searchSeconds));
        sb.append(String.format(Locale.ROOT, "  Δ  %.1f s of confirmation%n", confirm()));
        sb.append(String.format(
                Locale.ROOT,
                "  other %.1f s: warm-ups, validation, BG's start%n",
                Math.max(0, total - zeta() - omega() * nu() - searchSeconds - confirm())));
        return sb.toString();
    }

    public double zeta() {
        return terms.zeta();
    }

    public int omega() {
        return terms.omega();
    }

    public double nu() {
        return terms.nu();
    }

    public int eta() {
        return terms.eta();
    }

    public double delta() {
        return terms.delta();
    }

    public double confirm() {
        return terms.confirm();
    }

    public Map<String, Integer> resets() {
        return resetLog.resets();
    }

    public Map<String, Double> resetSeconds() {
        return resetLog.resetSeconds();
    }

    public long[] repaired() {
        return resetLog.repaired();
    }
}
