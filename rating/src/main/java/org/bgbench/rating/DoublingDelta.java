package org.bgbench.rating;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bgbench.model.InvalidParameterException;

/**
 * The Delta Analyzer's stop rule (dissertation 7.3.1): separate experiments at one T with δ = 1 s, 2 s, 4 s, … (a
 * factor of two each time, up to Δ); the ideal δ is the smallest one that starts m consecutive experiments whose
 * throughputs are constant within ±π % and whose issued mixes match the specified one. When no δ ≤ Δ does, δ = Δ.
 *
 * <p>"Constant within ±π %" is read as: the m throughputs differ from their mean by at most π % of it (the same
 * measure as {@link DeltaAnalyzer}'s windows). Pure: no I/O, no clock.
 */
public final class DoublingDelta {
    private DoublingDelta() {}

    /**
     * @param piPct        π, tolerated deviation of a throughput from the m experiments' mean, % (> 0)
     * @param m            consecutive experiments that must agree (≥ 2)
     * @param mixTolerance tolerated absolute difference between an action's issued and specified share (0..1)
     * @param maxDeltaS    Δ in seconds: the longest experiment and the fallback
     */
    public record Settings(double piPct, int m, double mixTolerance, int maxDeltaS) {
        public Settings {
            if (!(piPct > 0) || Double.isInfinite(piPct)) {
                throw new InvalidParameterException("--pi", "π must be a positive percentage, got " + piPct);
            }
            if (m < 2) {
                throw new InvalidParameterException("--m", "m must be at least 2 consecutive experiments, got " + m);
            }
            if (!(mixTolerance >= 0) || mixTolerance > 1) {
                throw new InvalidParameterException(
                        "--mix-tolerance", "expected a share between 0 and 1, got " + mixTolerance);
            }
            int room = sequence(Math.max(maxDeltaS, 0)).size();
            if (room < m) {
                throw new InvalidParameterException(
                        "--duration",
                        String.format(
                                Locale.ROOT,
                                "Δ = %d s is too short: it allows %d doubling experiment(s) (δ = 1, 2, 4, … s) "
                                        + "but --m needs %d; give at least %d s",
                                maxDeltaS,
                                room,
                                m,
                                1 << (m - 1)));
            }
        }
    }

    /** One experiment as measured: its δ, its throughput and how far its issued mix was from the specified one. */
    public record Experiment(int deltaS, double throughput, double mixDeviation) {}

    /**
     * The decision on the experiments so far.
     *
     * @param converged  m consecutive experiments agreed
     * @param deltaS     the ideal δ (Δ when not converged, or when undecided yet)
     * @param agreeing   the index of the first of the m agreeing experiments, or -1
     * @param reason     one sentence: why this δ
     */
    public record Verdict(boolean converged, int deltaS, int agreeing, String reason) {}

    /** The δs to try, seconds: 1, 2, 4, … up to Δ. */
    public static List<Integer> sequence(int maxDeltaS) {
        List<Integer> out = new ArrayList<>();
        for (long d = 1; d <= maxDeltaS; d *= 2) {
            out.add((int) d);
        }
        return List.copyOf(out);
    }

    /** Whether {@code e}'s issued mix matches the specified one within the tolerance. */
    public static boolean mixOk(Experiment e, Settings s) {
        return e.mixDeviation() <= s.mixTolerance();
    }

    /** Whether {@code e}'s throughput is within π % of the previous experiment's (true for the first). */
    public static boolean withinTolerance(List<Experiment> done, int index, Settings s) {
        if (index == 0) {
            return true;
        }
        double prev = done.get(index - 1).throughput();
        return prev > 0 && Math.abs(done.get(index).throughput() - prev) <= prev * s.piPct() / 100;
    }

    /**
     * The verdict on {@code done} (in the order run, δ doubling): the earliest m consecutive experiments that agree,
     * else not converged — finally so when the next δ would exceed Δ.
     */
    public static Verdict judge(List<Experiment> done, Settings s) {
        for (int i = 0; i + s.m() <= done.size(); i++) {
            List<Experiment> run = done.subList(i, i + s.m());
            if (run.stream().allMatch(e -> mixOk(e, s)) && spreadPct(run) <= s.piPct()) {
                return new Verdict(
                        true,
                        run.get(0).deltaS(),
                        i,
                        String.format(
                                Locale.ROOT,
                                "the %d experiments with δ = %s s have throughputs within ±%.1f %% of their mean "
                                        + "(π = %s %%) and issue the specified mix (tolerance %s)",
                                s.m(),
                                String.join(
                                        ", ",
                                        run.stream()
                                                .map(e -> Integer.toString(e.deltaS()))
                                                .toList()),
                                spreadPct(run),
                                Figures.of(s.piPct()),
                                Figures.of(s.mixTolerance())));
            }
        }
        return new Verdict(false, s.maxDeltaS(), -1, fallbackReason(done, s));
    }

    /** Whether another experiment is needed: not converged and the next doubled δ is still ≤ Δ. */
    public static boolean more(List<Experiment> done, Settings s) {
        return !judge(done, s).converged()
                && done.size() < sequence(s.maxDeltaS()).size();
    }

    /** Largest deviation of a throughput from the experiments' mean, % of the mean (∞ when the mean is 0). */
    static double spreadPct(List<Experiment> run) {
        return DeltaAnalyzer.variationPct(
                run.stream().map(Experiment::throughput).toList());
    }

    private static String fallbackReason(List<Experiment> done, Settings s) {
        if (done.size() < s.m()) {
            return String.format(
                    Locale.ROOT,
                    "only %d experiment(s) measured, %d needed to agree; using Δ = %d s",
                    done.size(),
                    s.m(),
                    s.maxDeltaS());
        }
        double least = Double.POSITIVE_INFINITY;
        int at = 0;
        boolean mixFailed = false;
        for (int i = 0; i + s.m() <= done.size(); i++) {
            List<Experiment> run = done.subList(i, i + s.m());
            double spread = spreadPct(run);
            if (spread <= s.piPct()) {
                mixFailed = true;
            }
            if (spread < least) {
                least = spread;
                at = i;
            }
        }
        String why = mixFailed
                ? "throughput was constant within π = " + Figures.of(s.piPct())
                        + " % but some of those experiments issued a mix off the specified one by more than "
                        + Figures.of(s.mixTolerance())
                : String.format(
                        Locale.ROOT,
                        "no %d consecutive experiments had throughputs within ±%s %% of their mean (least: %.1f %% "
                                + "from δ = %d s)",
                        s.m(),
                        Figures.of(s.piPct()),
                        least,
                        done.get(at).deltaS());
        return why
                + String.format(
                        Locale.ROOT,
                        " up to δ = %d s; using Δ = %d s",
                        done.getLast().deltaS(),
                        s.maxDeltaS());
    }
}
