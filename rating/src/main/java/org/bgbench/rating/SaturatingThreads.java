package org.bgbench.rating;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.bgbench.model.InvalidParameterException;

/**
 * Step 1 of the Delta Analyzer (dissertation 7.3.1): the thread count T that makes the store use one of its resources
 * completely. After a probe at T the busiest resource's utilisation u predicts the T that fills it, T / u; the next
 * probe runs c × T / u threads (c, the inflation factor, speeds the search up). It stops when a resource is full (u ≥
 * the full fraction: that T is chosen), when the busiest utilisation no longer rises by more than π % from one probe to
 * the next (the earlier, smaller T is chosen: more threads did not load the store more), or at the largest T allowed.
 * Pure: no I/O, no clock.
 */
public final class SaturatingThreads {
    /** BG judges a resource saturated at 90 % rather than 100 %: sampling noise keeps real saturation below. */
    public static final double FULL = 0.90;

    /** The smallest utilisation used for a prediction, so that an idle reading does not predict infinitely many. */
    private static final double FLOOR = 0.01;

    private SaturatingThreads() {}

    /**
     * @param inflation  c ≥ 1: the predicted T is multiplied by it
     * @param full       utilisation (0..1] at which a resource counts as fully used
     * @param piPct      π, % (> 0): a rise of the busiest utilisation by no more than this ends the search
     * @param maxThreads the largest T to probe (≥ 1)
     */
    public record Settings(double inflation, double full, double piPct, int maxThreads) {
        public Settings {
            if (!(inflation >= 1) || Double.isInfinite(inflation)) {
                throw new InvalidParameterException(
                        "--inflation", "the inflation factor c must be a number ≥ 1, got " + inflation);
            }
            if (!(full > 0) || full > 1) {
                throw new InvalidParameterException("full", "expected a fraction in (0, 1], got " + full);
            }
            if (!(piPct > 0) || Double.isInfinite(piPct)) {
                throw new InvalidParameterException("--pi", "π must be a positive percentage, got " + piPct);
            }
            if (maxThreads < 1) {
                throw new InvalidParameterException("--max-threads", "must be at least 1, got " + maxThreads);
            }
        }
    }

    /**
     * One resource's mean utilisation during a probe.
     *
     * @param node     the host ({@code HOST:PORT} of a store host, or this machine's name)
     * @param resource {@code cpu}, {@code disk} or {@code network}
     * @param fraction 0..1 (may exceed 1 slightly from sampling)
     */
    public record Use(String node, String resource, double fraction) {
        String describe() {
            return String.format(Locale.ROOT, "%s of %s at %.0f %%", resource, node, 100 * fraction);
        }
    }

    /** One probe: its T, its throughput and the utilisation of every resource read. */
    public record Probe(int threads, double throughput, List<Use> uses) {
        public Probe {
            uses = List.copyOf(uses);
        }

        /** The resource nearest its limit, or null when none was read. */
        public Use busiest() {
            return uses.stream().max(Comparator.comparingDouble(Use::fraction)).orElse(null);
        }
    }

    /**
     * What to do after the probes so far.
     *
     * @param done    T is chosen
     * @param threads the chosen T when done, else the next T to probe
     * @param use     the busiest resource of the chosen T's probe (null when not done or never read)
     * @param reason  when done, one sentence: why this T
     */
    public record Step(boolean done, int threads, Use use, String reason) {}

    /** The first T to probe. */
    public static int first() {
        return 1;
    }

    /** The next step after {@code probes} (in the order run; at least one). */
    public static Step next(List<Probe> probes, Settings s) {
        Probe last = probes.getLast();
        Use u = last.busiest();
        if (u != null && u.fraction() >= s.full()) {
            return new Step(
                    true,
                    last.threads(),
                    u,
                    String.format(
                            Locale.ROOT,
                            "T = %d fills a resource: %s (full at %.0f %%)",
                            last.threads(),
                            u.describe(),
                            100 * s.full()));
        }
        if (probes.size() >= 2 && u != null) {
            Probe prev = probes.get(probes.size() - 2);
            Use pu = prev.busiest();
            if (pu != null && u.fraction() <= pu.fraction() * (1 + s.piPct() / 100)) {
                return new Step(
                        true,
                        prev.threads(),
                        pu,
                        String.format(
                                Locale.ROOT,
                                "the busiest resource stopped rising: %s at T = %d, %s at T = %d (within π = %s %%)",
                                pu.describe(),
                                prev.threads(),
                                u.describe(),
                                last.threads(),
                                Figures.of(s.piPct())));
            }
        }
        if (last.threads() >= s.maxThreads()) {
            return new Step(
                    true,
                    last.threads(),
                    u,
                    String.format(
                            Locale.ROOT,
                            "--max-threads %d reached with no resource full%s",
                            s.maxThreads(),
                            u == null ? " (no utilisation was read)" : " (busiest: " + u.describe() + ")"));
        }
        double fraction = u == null ? FLOOR : Math.max(u.fraction(), FLOOR);
        long predicted = (long) Math.ceil(s.inflation() * last.threads() / fraction - 1e-9);
        int next = (int) Math.min(s.maxThreads(), Math.max(last.threads() + 1L, predicted));
        return new Step(false, next, null, null);
    }
}
