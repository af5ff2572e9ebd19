package org.bgbench.rating;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.bgbench.model.Durations;
import org.bgbench.store.ErrorText;

/**
 * Rates a data store (dissertation 7.1): asks an {@link ExperimentRunner} for experiments with different T
 * and searches for the SoAR (highest throughput that meets the SLA) and the Socialites rating (highest T that meets
 * it), then confirms each with a run of length Δ, repeated (at most {@link #CONFIRMATION_REPEATS} times) when its
 * throughput disagrees with the δ run's beyond the tolerance; still disagreeing, the rating is
 * {@link RatingStatus#UNSTABLE}.
 *
 * <ul>
 *   <li>SoAR: hill climbing T = 1, r, r², … while the SLA holds and throughput does not fall; 0 when T = 1 misses
 *       the SLA; then {@link LocalSearch#OPTIMAL} or {@link LocalSearch#APPROXIMATE} around the peak. The SoAR is
 *       the highest throughput of any experiment of length δ that met the SLA (normally where the local search
 *       ended; a warning says so when another experiment beat it).</li>
 *   <li>Socialites: T = 1, 2, 4, … while the SLA holds, then a binary search between the last success and the first
 *       failure.</li>
 *   <li>Experiments are cached by (T, duration): none is run twice, and SoAR's climb with r = 2 is Socialites'
 *       doubling. With δ = Δ the confirmation runs are cache hits.</li>
 *   <li>After the search, the experiments are checked against the search's assumptions (throughput unimodal and,
 *       below its peak, concave in T; within-β % and the SLA's outcome not improving as T grows); contradictions
 *       become warnings.</li>
 *   <li>If the runner throws, {@link #requestStop(String)} is called, the thread is interrupted or a limit is
 *       reached, the rating stops and returns what it has, with the reason.</li>
 * </ul>
 *
 * <p>A {@code Rating} is used once: configure it, then call {@link #rate()}.
 */
public final class Rating {
    /**
     * How often a confirmation run that met the SLA but measured a throughput beyond the confirmation tolerance from
     * its δ run is repeated before the rating is {@link RatingStatus#UNSTABLE}.
     */
    public static final int CONFIRMATION_REPEATS = Confirmation.REPEATS;

    private static final double NONE = Double.NEGATIVE_INFINITY;

    private final RatingSettings settings;
    private final Sla sla;
    private final ExperimentRunner runner;
    private RatingListener listener = RatingListener.NONE;
    private final Map<Key, Experiment> cache = new HashMap<>();
    private final List<Experiment> experiments = new ArrayList<>();
    private final Set<String> warnings = new LinkedHashSet<>();
    private int runs;
    private int cacheHits;
    private volatile String stopRequest;
    private boolean started;

    // Search outcomes.
    private boolean soarSearched;
    private boolean soarZero;
    private int soarConverged = -1;
    private boolean soarAtMax;
    private boolean socialitesSearched;
    private int socialitesThreads;

    private record Key(int threads, Duration duration) {}

    /** Ends the search from deep inside it; carries the stop reason. */
    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stop(String reason, Throwable cause) {
            super(reason, cause, false, false);
        }
    }

    public Rating(RatingSettings settings, ExperimentRunner runner) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sla = settings.sla();
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    /** Who to tell about every finished experiment and every warning. */
    public Rating listener(RatingListener l) {
        checkNotStarted();
        this.listener = Objects.requireNonNull(l, "listener");
        return this;
    }

    /**
     * Reuses experiments of an earlier, interrupted rating of the same store and workload (e.g. read back with
     * {@link Experiment#fromMap(Map)}): the search takes them from the cache instead of running them again. They
     * are judged against this rating's SLA; of several with the same T and duration the first counts.
     */
    public Rating resumeFrom(Collection<Experiment> earlier) {
        checkNotStarted();
        for (Experiment e : earlier) {
            Key key = new Key(e.threads(), e.duration());
            if (!cache.containsKey(key)) {
                Experiment r = e.resumedAs(experiments.size() + 1, sla);
                cache.put(key, r);
                experiments.add(r);
            }
        }
        return this;
    }

    /**
     * Asks the rating to stop before its next experiment (thread-safe; the running experiment is not interrupted).
     * The result then carries {@code "stopped on request: " + reason}.
     */
    public void requestStop(String reason) {
        stopRequest = reason == null || reason.isBlank() ? "no reason given" : reason;
    }

    /** Runs the search; returns when it is done or stopped. */
    public RatingResult rate() {
        checkNotStarted();
        started = true;
        long t0 = System.nanoTime();
        Duration delta = settings.experimentDuration();
        boolean soarTarget = settings.targets().contains(Target.SOAR);
        boolean socialitesTarget = settings.targets().contains(Target.SOCIALITES);
        String stopReason = null;
        Throwable stopCause = null;
        Confirmation soarConfirmation = null;
        Confirmation socialitesConfirmation = null;
        Experiment soarChoice = null;
        try {
            if (soarTarget) {
                searchSoar(delta);
            }
            if (socialitesTarget) {
                searchSocialites(delta);
            }
            if (soarTarget && !soarZero) {
                soarChoice = bestSuccess(delta);
                Experiment converged = soarConverged > 0 ? cache.get(new Key(soarConverged, delta)) : null;
                if (soarChoice != null
                        && (converged == null
                                || soarChoice.throughput()
                                        > converged.throughput() * (1 + settings.throughputTolerancePct() / 100))) {
                    warn(String.format(
                            Locale.ROOT,
                            "SoAR: the highest throughput that met the SLA, %s actions/s, "
                                    + "was measured at T=%d (%s), not where the %s search ended (T=%s), so BG reports "
                                    + "T=%d. Throughput probably rises and falls more than once in T and the SoAR may "
                                    + "be higher still; rate with a longer δ to smooth the curve.",
                            Figures.of(soarChoice.throughput()),
                            soarChoice.threads(),
                            soarChoice.phase().label(),
                            settings.localSearch().name().toLowerCase(Locale.ROOT),
                            soarConverged < 0 ? "none met the SLA" : Integer.toString(soarConverged),
                            soarChoice.threads()));
                }
                if (settings.confirm() && soarChoice != null) {
                    soarConfirmation = confirm("SoAR", soarChoice);
                }
            }
            if (socialitesTarget && socialitesThreads > 0 && settings.confirm()) {
                Experiment search = cache.get(new Key(socialitesThreads, delta));
                // At the SoAR's T the SoAR's confirmation runs are the Socialites' too: not repeated again.
                socialitesConfirmation = soarConfirmation != null && soarChoice == search
                        ? soarConfirmation
                        : confirm("Socialites", search);
            }
        } catch (Stop s) {
            stopReason = s.getMessage();
            stopCause = s.getCause();
            warn("The rating stopped early: " + stopReason);
        }
        List<Experiment> sameDuration = new ArrayList<>();
        for (Experiment e : experiments) {
            if (e.duration().equals(delta)) {
                sameDuration.add(e);
            }
        }
        for (String w : AssumptionChecks.check(sameDuration, settings)) {
            warn(w);
        }
        SoarRating soar = soarTarget
                ? RatingCaveats.soar(soarRating(delta, soarChoice, soarConfirmation), soarAtMax, experiments, settings)
                : null;
        // Only a SoAR at max-threads is bounded by it: the local search may have found the peak below.
        if (soar != null
                && soarAtMax
                && soar.threads() == settings.maxThreads()
                && soar.status() != RatingStatus.ZERO) {
            warn("SoAR: the hill climbing reached max-threads=" + settings.maxThreads() + " with the SLA still "
                    + "met and throughput not falling: the SoAR may be higher; raise max-threads.");
        }
        SocialitesRating socialites = socialitesTarget
                ? RatingCaveats.socialites(socialitesRating(delta, socialitesConfirmation), settings)
                : null;
        return new RatingResult(
                settings,
                soar,
                socialites,
                experiments,
                runs,
                cacheHits,
                Duration.ofNanos(System.nanoTime() - t0),
                new ArrayList<>(warnings),
                stopReason,
                stopCause);
    }

    // ---------------------------------------------------------------------------------------------- SoAR

    private void searchSoar(Duration delta) {
        Experiment first = measure(1, delta, Phase.SOAR_CLIMB);
        if (!first.success()) {
            soarZero = true;
            soarSearched = true;
            return;
        }
        List<Integer> climb = new ArrayList<>();
        climb.add(1);
        int bestT = 1;
        double bestX = first.throughput();
        double previousX = bestX;
        double r = settings.climbingFactor();
        int t = 1;
        while (true) {
            if (t >= settings.maxThreads()) {
                soarAtMax = true;
                break;
            }
            int next = next(t, r);
            Experiment e = measure(next, delta, Phase.SOAR_CLIMB);
            climb.add(next);
            if (!e.success() || e.throughput() < bestX) {
                break;
            }
            if (settings.adaptiveClimbing() && previousX > 0 && e.throughput() / previousX > r && r < 1024) {
                // Dissertation 7.1: when throughput grew more than r-fold, double r.
                r = Math.min(1024, r * 2);
            }
            if (e.throughput() > bestX) {
                bestT = next;
                bestX = e.throughput();
            }
            previousX = e.throughput();
            t = next;
        }
        int i = climb.indexOf(bestT);
        int end = i + 1 < climb.size() ? climb.get(i + 1) : bestT;
        if (settings.localSearch() == LocalSearch.OPTIMAL) {
            int start = i > 0 ? climb.get(i - 1) : 1;
            soarConverged = optimal(start, end, bestT, delta);
        } else {
            soarConverged = approximate(bestT, bestX, end, delta);
        }
        soarSearched = true;
    }

    /**
     * Optimal [dissertation 7.1]: probes T−1 and T+1 around a point; a point at least as high as both is the peak;
     * otherwise it continues in the half whose slope rises, at its midpoint. An experiment that misses the SLA counts
     * as lower than any that meets it (under the assumptions, everything beyond it misses it too).
     *
     * @return the T where it ended, −1 when no point of the interval met the SLA
     */
    private int optimal(int lo, int hi, int start, Duration delta) {
        int m = start;
        while (lo <= hi) {
            double c = f(m, delta);
            if (c == NONE) {
                hi = m - 1;
                m = lo + (hi - lo) / 2;
                continue;
            }
            double left = m > lo ? f(m - 1, delta) : NONE;
            double right = m < hi ? f(m + 1, delta) : NONE;
            if (c >= left && c >= right) {
                return m;
            }
            boolean goRight = left > c && right > c ? resolveDip(lo, hi, m, c, left, right, delta) : right > c;
            if (goRight) {
                lo = m + 1;
            } else {
                hi = m - 1;
            }
            m = lo + (hi - lo) / 2;
        }
        return -1;
    }

    /**
     * Both neighbours of m are higher: not unimodal. Dissertation 7.1, footnote 2: widen the probes (η = 2, 4, …)
     * until one side rises and the other does not; if the interval runs out, follow the higher neighbour.
     */
    private boolean resolveDip(int lo, int hi, int m, double c, double left, double right, Duration delta) {
        warn(String.format(
                Locale.ROOT,
                "SoAR (optimal): throughput at T=%d (%s actions/s) is below both neighbours, "
                        + "T=%d (%s) and T=%d (%s), so it is not unimodal; BG is widening the probes to find the way "
                        + "up, nothing to do (dissertation 7.1, footnote 2).",
                m,
                Figures.of(c),
                m - 1,
                Figures.of(left),
                m + 1,
                Figures.of(right)));
        for (long eta = 2; ; eta *= 2) {
            boolean inLeft = m - eta >= lo;
            boolean inRight = m + eta <= hi;
            if (!inLeft && !inRight) {
                return right >= left;
            }
            boolean upLeft = inLeft && f((int) (m - eta), delta) > c;
            boolean upRight = inRight && f((int) (m + eta), delta) > c;
            if (upRight != upLeft) {
                return upRight;
            }
        }
    }

    /**
     * Approximate [dissertation 7.1]: bisects between the best point and the next point of the climb; a midpoint that
     * meets the SLA with a higher throughput becomes the start, any other the end.
     */
    private int approximate(int start, double bestX, int end, Duration delta) {
        double best = bestX;
        while (end - start > 1) {
            int mid = start + (end - start) / 2;
            Experiment e = measure(mid, delta, Phase.SOAR_LOCAL);
            if (e.success() && e.throughput() > best) {
                start = mid;
                best = e.throughput();
            } else {
                end = mid;
            }
        }
        return start;
    }

    private double f(int threads, Duration delta) {
        Experiment e = measure(threads, delta, Phase.SOAR_LOCAL);
        return e.success() ? e.throughput() : NONE;
    }

    private int next(int t, double r) {
        long n = (long) Math.ceil(t * r - 1e-9);
        n = Math.max(n, t + 1L);
        return (int) Math.min(n, settings.maxThreads());
    }

    // ---------------------------------------------------------------------------------------------- Socialites

    private void searchSocialites(Duration delta) {
        if (!measure(1, delta, Phase.SOCIALITES_DOUBLING).success()) {
            socialitesThreads = 0;
            socialitesSearched = true;
            return;
        }
        int good = 1;
        int bad;
        while (true) {
            if (good >= settings.maxThreads()) {
                warn("Socialites: T=max-threads=" + settings.maxThreads() + " still met the SLA: the Socialites "
                        + "rating may be higher; raise max-threads.");
                socialitesThreads = good;
                socialitesSearched = true;
                return;
            }
            int next = (int) Math.min(2L * good, settings.maxThreads());
            if (measure(next, delta, Phase.SOCIALITES_DOUBLING).success()) {
                good = next;
            } else {
                bad = next;
                break;
            }
        }
        while (bad - good > 1) {
            int mid = good + (bad - good) / 2;
            if (measure(mid, delta, Phase.SOCIALITES_BINARY).success()) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        socialitesThreads = good;
        socialitesSearched = true;
    }

    // ---------------------------------------------------------------------------------------------- confirmation

    private Confirmation confirm(String rating, Experiment search) {
        return Confirmation.run(
                rating,
                search,
                again -> measure(search.threads(), sla.duration(), Phase.CONFIRMATION, again),
                settings,
                this::warn);
    }

    // ---------------------------------------------------------------------------------------------- results

    private SoarRating soarRating(Duration delta, Experiment choice, Confirmation confirmation) {
        if (!soarSearched) {
            Experiment best = bestSuccess(delta);
            return best == null
                    ? new SoarRating(0, 0, RatingStatus.INCOMPLETE, null, null)
                    : new SoarRating(best.throughput(), best.threads(), RatingStatus.INCOMPLETE, best, null);
        }
        if (soarZero) {
            return new SoarRating(0, 0, RatingStatus.ZERO, null, null);
        }
        Experiment best = choice != null ? choice : bestSuccess(delta);
        if (best == null) { // cannot happen: T = 1 met the SLA
            return new SoarRating(0, 0, RatingStatus.INCOMPLETE, null, null);
        }
        if (confirmation != null) {
            Experiment c = confirmation.last();
            RatingNotes notes = new RatingNotes(confirmation.runs(), null, null);
            if (!c.success()) {
                return new SoarRating(
                        best.throughput(), best.threads(), RatingStatus.CONFIRMATION_FAILED, best, c, notes);
            }
            return confirmation.agrees()
                    ? new SoarRating(c.throughput(), best.threads(), RatingStatus.CONFIRMED, best, c, notes)
                    : new SoarRating(best.throughput(), best.threads(), RatingStatus.UNSTABLE, best, c, notes);
        }
        RatingStatus status = delta.equals(sla.duration())
                ? RatingStatus.CONFIRMED
                : settings.confirm() ? RatingStatus.INCOMPLETE : RatingStatus.UNCONFIRMED;
        return new SoarRating(best.throughput(), best.threads(), status, best, null);
    }

    private SocialitesRating socialitesRating(Duration delta, Confirmation confirmation) {
        if (!socialitesSearched) {
            Experiment largest = null;
            for (Experiment e : experiments) {
                if (e.duration().equals(delta) && e.success() && (largest == null || e.threads() > largest.threads())) {
                    largest = e;
                }
            }
            return largest == null
                    ? new SocialitesRating(0, 0, RatingStatus.INCOMPLETE, null, null)
                    : new SocialitesRating(
                            largest.threads(), largest.throughput(), RatingStatus.INCOMPLETE, largest, null);
        }
        if (socialitesThreads == 0) {
            return new SocialitesRating(0, 0, RatingStatus.ZERO, null, null);
        }
        Experiment search = cache.get(new Key(socialitesThreads, delta));
        if (confirmation != null) {
            Experiment c = confirmation.last();
            RatingNotes notes = new RatingNotes(confirmation.runs(), null, null);
            RatingStatus status = !c.success()
                    ? RatingStatus.CONFIRMATION_FAILED
                    : confirmation.agrees() ? RatingStatus.CONFIRMED : RatingStatus.UNSTABLE;
            return new SocialitesRating(
                    socialitesThreads,
                    status == RatingStatus.CONFIRMED ? c.throughput() : search.throughput(),
                    status,
                    search,
                    c,
                    notes);
        }
        RatingStatus status = delta.equals(sla.duration())
                ? RatingStatus.CONFIRMED
                : settings.confirm() ? RatingStatus.INCOMPLETE : RatingStatus.UNCONFIRMED;
        return new SocialitesRating(socialitesThreads, search.throughput(), status, search, null);
    }

    /** The experiment of length {@code delta} with the highest throughput that met the SLA; ties: the smaller T. */
    private Experiment bestSuccess(Duration delta) {
        Experiment best = null;
        for (Experiment e : experiments) {
            if (e.duration().equals(delta)
                    && e.success()
                    && (best == null
                            || e.throughput() > best.throughput()
                            || e.throughput() == best.throughput() && e.threads() < best.threads())) {
                best = e;
            }
        }
        return best;
    }

    // ---------------------------------------------------------------------------------------------- running

    private Experiment measure(int threads, Duration duration, Phase phase) {
        return measure(threads, duration, phase, false);
    }

    /** The experiment at (T, duration): from the cache unless {@code again}, which runs it once more. */
    private Experiment measure(int threads, Duration duration, Phase phase, boolean again) {
        Key key = new Key(threads, duration);
        Experiment cached = again ? null : cache.get(key);
        if (cached != null) {
            cacheHits++;
            return cached;
        }
        String request = stopRequest;
        if (request != null) {
            throw new Stop("stopped on request: " + request, null);
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new Stop("interrupted before the experiment with T=" + threads, null);
        }
        if (runs >= settings.maxExperiments()) {
            throw new Stop(
                    "reached max-experiments=" + settings.maxExperiments() + " before the experiment with T=" + threads,
                    null);
        }
        Instant startedAt = Instant.now();
        long t0 = System.nanoTime();
        Measurement m;
        try {
            m = runner.run(threads, duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Stop("interrupted during the experiment with T=" + threads, e);
        } catch (Exception e) {
            throw new Stop(
                    "the experiment with T=" + threads + " (" + Durations.format(duration) + ") failed: " + describe(e),
                    e);
        }
        if (m == null) {
            throw new Stop("the experiment with T=" + threads + " returned no measurement", null);
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        List<String> failures = m.failures(sla);
        Experiment e = new Experiment(
                experiments.size() + 1,
                phase,
                new Experiment.Input(threads, duration),
                m,
                new Experiment.Verdict(failures.isEmpty(), failures),
                new Experiment.Origin(startedAt, wall, false));
        cache.put(key, e);
        experiments.add(e);
        runs++;
        try {
            listener.experimentFinished(e);
        } catch (RuntimeException ex) {
            warn("The rating's listener failed (it is told about every experiment; the rating went on): "
                    + describe(ex));
        }
        return e;
    }

    private void warn(String text) {
        String warning = settings.words(text);
        if (warnings.add(warning)) {
            try {
                listener.warning(warning);
            } catch (RuntimeException ex) {
                warnings.add("The rating's listener failed on a warning: " + describe(ex));
            }
        }
    }

    /** The failure in words, without its class name (the store's "connection refused", not "IOException: …"). */
    private static String describe(Throwable e) {
        return ErrorText.message(e);
    }

    private void checkNotStarted() {
        if (started) {
            throw new IllegalStateException("a Rating runs once; create a new one");
        }
    }
}
