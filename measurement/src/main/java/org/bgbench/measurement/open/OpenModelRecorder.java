package org.bgbench.measurement.open;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.SecondSample;
import org.bgbench.model.log.ArrivalRecorder;

/**
 * Records the open model's own figures while a run goes on: each measured arrival's start delay (and whether it was
 * late or had to wait for a free thread), each action's service time, and, fed each measured second
 * ({@link #accept}), the response times per phase of the schedule. Threads record into stripes ({@link #stripe}: the
 * thread's index modulo a power of two up to {@value #MAX_STRIPES}), each of HdrHistogram {@link AtomicHistogram}s
 * and counters, so that at a million arrivals a second the threads do not contend on shared counters (one shared
 * histogram cost BG a third of its rate); {@link #result} adds the stripes up into the result's {@code open} section.
 */
public final class OpenModelRecorder implements Consumer<SecondSample> {
    /** The most stripes: their histograms cost ~0.2 MB each per kind recorded. */
    static final int MAX_STRIPES = 4;
    /**
     * One phase of the schedule, in seconds into the measured period ({@code endS} infinite for an open-ended last
     * phase).
     */
    public record PhasePlan(String label, double startS, double endS, double fromRate, double toRate) {}

    private final String schedule;
    private final String process;
    private final int inFlightLimit;
    private final long maxLagNanos;
    private final double maxLatePct;
    private final List<String> kindCodes;
    private final List<PhasePlan> phases;
    private final Stripe[] stripes;
    // Per phase, fed by the sampler thread only (accept is called from it), read under this object's lock.
    private final Histogram[] phaseResponse;
    private final long[] phaseActions;
    private final double[] phaseSeconds;

    /**
     * @param schedule      the schedule as given, for the result
     * @param inFlightLimit BG's threads
     * @param maxLag        an arrival starting later than this after its due time is late
     * @param maxLatePct    more than this % of late arrivals make the run invalid
     * @param kindCodes     action and session codes by kind index
     */
    public OpenModelRecorder(
            String schedule,
            String process,
            int inFlightLimit,
            Duration maxLag,
            double maxLatePct,
            List<String> kindCodes,
            List<PhasePlan> phases) {
        int n = 1;
        while (n < Math.min(inFlightLimit, MAX_STRIPES)) {
            n <<= 1;
        }
        this.schedule = schedule;
        this.process = process;
        this.inFlightLimit = inFlightLimit;
        this.maxLagNanos = maxLag.toNanos();
        this.maxLatePct = maxLatePct;
        this.kindCodes = List.copyOf(kindCodes);
        this.phases = List.copyOf(phases);
        this.stripes = new Stripe[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new Stripe(kindCodes.size(), phases.size());
        }
        this.phaseResponse = new Histogram[phases.size()];
        for (int i = 0; i < phaseResponse.length; i++) {
            phaseResponse[i] = Latencies.newHistogram();
        }
        this.phaseActions = new long[phases.size()];
        this.phaseSeconds = new double[phases.size()];
    }

    private static AtomicHistogram histogram() {
        return new AtomicHistogram(Latencies.LOWEST_NS, Latencies.HIGHEST_NS, Latencies.DIGITS);
    }

    private static long clamp(long nanos) {
        return Math.max(0, Math.min(nanos, Latencies.HIGHEST_NS));
    }

    /** Where thread {@code threadIndex} records. */
    public ArrivalRecorder stripe(int threadIndex) {
        return stripes[threadIndex & (stripes.length - 1)];
    }

    /** One stripe's figures; its threads share it. */
    private final class Stripe implements ArrivalRecorder {
        final LongAdder started = new LongAdder();
        final LongAdder queued = new LongAdder();
        final LongAdder late = new LongAdder();
        final AtomicHistogram startDelay = histogram();
        /** Per kind, made on its first service time. */
        final AtomicReferenceArray<AtomicHistogram> service;

        final AtomicLongArray phaseStarted;

        Stripe(int kinds, int phaseCount) {
            this.service = new AtomicReferenceArray<>(kinds);
            this.phaseStarted = new AtomicLongArray(phaseCount);
        }

        @Override
        public void started(int phase, long delayNanos, boolean wasQueued) {
            started.increment();
            if (wasQueued) {
                queued.increment();
            }
            if (delayNanos > maxLagNanos) {
                late.increment();
            }
            startDelay.recordValue(clamp(delayNanos));
            if (phase >= 0 && phase < phaseStarted.length()) {
                phaseStarted.incrementAndGet(phase);
            }
        }

        @Override
        public void service(int kind, long nanos) {
            AtomicHistogram h = service.get(kind);
            if (h == null) {
                service.compareAndSet(kind, null, histogram());
                h = service.get(kind);
            }
            h.recordValue(clamp(nanos));
        }
    }

    /** A sampled second: its actions' response times go to the phase that holds its middle. */
    @Override
    public synchronized void accept(SecondSample s) {
        if (s.warmup() || phases.isEmpty()) {
            return;
        }
        double middle = s.point().elapsedS() - s.point().intervalS() / 2;
        int i = phaseAt(middle);
        if (s.actionLatencies() != null) {
            phaseResponse[i].add(s.actionLatencies());
        }
        phaseActions[i] += s.point().actions();
        phaseSeconds[i] += s.point().intervalS();
    }

    private int phaseAt(double second) {
        for (int i = 0; i < phases.size() - 1; i++) {
            if (second < phases.get(i).endS()) {
                return i;
            }
        }
        return phases.size() - 1;
    }

    /** The arrivals that started in the measured period so far. */
    public long started() {
        long n = 0;
        for (Stripe st : stripes) {
            n += st.started.sum();
        }
        return n;
    }

    /**
     * The open section of a run whose measured period lasted {@code seconds}, with the backlog left at its end:
     * {@code unstarted} arrivals had been due and not started, the oldest for {@code oldestUnstartedNanos}. Every one
     * of them counts as late, however recently it came due: it was never offered to the store, and in a period not
     * much longer than the lag bound none of them could have waited longer than the bound.
     */
    public synchronized OpenModelResult result(double seconds, long unstarted, long oldestUnstartedNanos) {
        long n = 0;
        long lateStarted = 0;
        long q = 0;
        Histogram startDelay = Latencies.newHistogram();
        Histogram[] service = new Histogram[kindCodes.size()];
        long[] phaseStarted = new long[phases.size()];
        for (Stripe st : stripes) {
            n += st.started.sum();
            lateStarted += st.late.sum();
            q += st.queued.sum();
            startDelay.add(st.startDelay);
            for (int k = 0; k < service.length; k++) {
                AtomicHistogram h = st.service.get(k);
                if (h != null) {
                    if (service[k] == null) {
                        service[k] = Latencies.newHistogram();
                    }
                    service[k].add(h);
                }
            }
            for (int i = 0; i < phaseStarted.length; i++) {
                phaseStarted[i] += st.phaseStarted.get(i);
            }
        }
        long offered = n + unstarted;
        long lateTotal = lateStarted + unstarted;
        double latePct = offered == 0 ? 0 : 100.0 * lateTotal / offered;
        String reason = null;
        if (latePct > maxLatePct) {
            reason = String.format(
                    Locale.ROOT,
                    "BG fell behind its schedule: %.1f %% of the %,d arrivals due were "
                            + "late (%,d started more than %s after their due time, %,d never started; at most %.1f %% "
                            + "may be late)%s",
                    latePct,
                    offered,
                    lateStarted,
                    lag(),
                    unstarted,
                    maxLatePct,
                    q > 0
                            ? String.format(
                                    Locale.ROOT,
                                    "; %.1f %% found all %d threads busy: "
                                            + "raise --threads if the store can take more at once, else the store cannot keep up "
                                            + "with this rate",
                                    100.0 * q / Math.max(1, n),
                                    inFlightLimit)
                            : "; threads were free, so BG's own CPU could not keep up");
        } else if (offered == 0 && seconds > 0) {
            reason = "no arrival started in the measured period";
        }
        Map<String, LatencySummary> services = new LinkedHashMap<>();
        for (int k = 0; k < service.length; k++) {
            if (service[k] != null && service[k].getTotalCount() > 0) {
                services.put(kindCodes.get(k), LatencySummary.of(service[k]));
            }
        }
        List<OpenModelResult.PhaseResult> ps = new ArrayList<>();
        for (int i = 0; i < phases.size(); i++) {
            PhasePlan p = phases.get(i);
            ps.add(OpenModelResult.PhaseResult.builder()
                    .index(i + 1)
                    .label(p.label())
                    .startS(p.startS())
                    .endS(Double.isInfinite(p.endS()) ? seconds : Math.min(p.endS(), seconds))
                    .fromRate(p.fromRate())
                    .toRate(p.toRate())
                    .started(phaseStarted[i])
                    .throughput(phaseSeconds[i] > 0 ? phaseActions[i] / phaseSeconds[i] : 0)
                    .response(LatencySummary.of(phaseResponse[i]))
                    .build());
        }
        return OpenModelResult.builder()
                .schedule(schedule)
                .process(process)
                .inFlightLimit(inFlightLimit)
                .maxLagMs(maxLagNanos / 1e6)
                .maxLatePct(maxLatePct)
                .offered(offered)
                .started(n)
                .offeredRate(seconds > 0 ? offered / seconds : 0)
                .queued(q)
                .unstarted(unstarted)
                .oldestUnstartedMs(unstarted > 0 ? oldestUnstartedNanos / 1e6 : null)
                .late(lateTotal)
                .latePct(latePct)
                .startDelay(LatencySummary.of(startDelay))
                .valid(reason == null)
                .invalidReason(reason)
                .service(services)
                .phases(ps)
                .build();
    }

    private String lag() {
        if (maxLagNanos % 1_000_000_000L == 0) {
            return maxLagNanos / 1_000_000_000L + " s";
        }
        return maxLagNanos % 1_000_000 == 0 ? maxLagNanos / 1_000_000 + " ms" : maxLagNanos / 1e6 + " ms";
    }
}
