package org.bgbench.measurement;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.bgbench.model.Kind;

/**
 * The figures of one interval: the differences of two cumulative snapshots of the stripes, per kind and for all
 * actions together.
 *
 * @param kinds             per kind, in {@link Kind#index()} order
 * @param actionLatencies   the latencies of all actions together
 * @param actionsWithinBeta actions that completed within β
 * @param sessions          sessions that completed
 * @param failures          errors and no-ops
 * @param waits             time threads waited inside BG
 * @param actionCpu         BG's CPU sampled inside actions
 */
record Interval(
        List<KindCounts> kinds,
        Histogram actionLatencies,
        long actionsWithinBeta,
        long sessions,
        Interval.Failures failures,
        Interval.Waits waits,
        Interval.Cpu actionCpu) {
    /** The latencies of a kind that did not run in an interval: one shared empty histogram, never written. */
    static final Histogram NOTHING = Latencies.newHistogram();

    /**
     * @param errors       errors of every kind
     * @param noops        no-ops of every kind
     * @param errorNanos   time actions took to fail
     * @param actionErrors errors of actions (sessions excluded)
     */
    record Failures(long errors, long noops, long errorNanos, long actionErrors) {}

    /** Waits inside BG: their total time and their number. */
    record Waits(long nanos, long count) {}

    /** BG's CPU time sampled inside actions, and the samples. */
    record Cpu(long nanos, long samples) {}

    /** The differences between cumulative snapshots {@code to} and {@code from} of {@code stripes}. */
    static Interval between(Stripes stripes, List<String> codes, long[] to, long[] from) {
        LatencyLayout layout = stripes.layout;
        int counters = stripes.counters();
        Histogram actions = Latencies.newHistogram();
        List<KindCounts> kinds = new ArrayList<>(codes.size());
        long actionsWithinBeta = 0;
        long sessions = 0;
        long errors = 0;
        long noops = 0;
        long errorNanos = 0;
        long actionErrors = 0;
        long actionCpuNanos = 0;
        long actionCpuSamples = 0;
        for (int k = 0; k < codes.size(); k++) {
            int block = k * stripes.stride;
            boolean action = Kind.isAction(k);
            if (!stripes.recorded(to, k)) {
                // Never recorded: its block is zeros in both snapshots (and in every earlier one).
                kinds.add(new KindCounts(codes.get(k), NOTHING, 0, 0, KindCounts.NO_OUTCOMES, KindCounts.NO_CPU));
                continue;
            }
            // Dense: filling a packed histogram slot by slot costs ~100x more, and these live for one interval. Made
            // only for a kind that ran in it: in a typical mix most kinds do not, and 200 KB a kind a second kept the
            // young generation filling (a G1 pause of 10-30 ms every few seconds, which the open model's schedule
            // error shows).
            long aboveBetaInItsSlot =
                    to[block + counters + Stripes.ABOVE_BETA] - from[block + counters + Stripes.ABOVE_BETA];
            long withinBeta = countedUpTo(to, from, block, stripes.betaIndex);
            Histogram h = null;
            if (withinBeta != 0 || aboveBetaInItsSlot != 0 || anyCounted(to, from, block, layout.length)) {
                h = Latencies.newHistogram();
                record(to, from, block, layout, stripes.betaIndex, aboveBetaInItsSlot, h, action ? actions : null);
            }
            long kindNoops = to[block + counters + Stripes.NOOPS] - from[block + counters + Stripes.NOOPS];
            long kindErrors = to[block + counters + Stripes.ERRORS] - from[block + counters + Stripes.ERRORS];
            long kindErrorNanos =
                    to[block + counters + Stripes.ERROR_NANOS] - from[block + counters + Stripes.ERROR_NANOS];
            long kindCpuNanos = to[block + counters + Stripes.CPU_NANOS] - from[block + counters + Stripes.CPU_NANOS];
            long kindCpuSamples =
                    to[block + counters + Stripes.CPU_SAMPLES] - from[block + counters + Stripes.CPU_SAMPLES];
            kinds.add(new KindCounts(
                    codes.get(k),
                    h == null ? NOTHING : h,
                    withinBeta,
                    0,
                    new KindCounts.Outcomes(kindNoops, kindErrors, kindErrorNanos),
                    new KindCounts.Cpu(kindCpuNanos, kindCpuSamples)));
            if (action) {
                actionsWithinBeta += withinBeta;
            } else if (h != null) {
                sessions += h.getTotalCount();
            }
            errors += kindErrors;
            noops += kindNoops;
            errorNanos += action ? kindErrorNanos : 0;
            actionErrors += action ? kindErrors : 0;
            actionCpuNanos += action ? kindCpuNanos : 0;
            actionCpuSamples += action ? kindCpuSamples : 0;
        }
        int s = stripes.stripeCounters();
        return new Interval(
                List.copyOf(kinds),
                actions,
                actionsWithinBeta,
                sessions,
                new Failures(errors, noops, errorNanos, actionErrors),
                new Waits(
                        to[s + Stripes.BG_WAIT_NANOS] - from[s + Stripes.BG_WAIT_NANOS],
                        to[s + Stripes.BG_WAIT_COUNT] - from[s + Stripes.BG_WAIT_COUNT]),
                new Cpu(actionCpuNanos, actionCpuSamples));
    }

    // The slot loops below are small methods of their own: inlined into interval() they made a 30 KB method that C2
    // compiled four times in a run's first seconds (300 ms of CPU each, after a failed loop predicate), the largest
    // share of BG's CPU outside actions in a short run (docs/benchmarks.md).

    /** Counts in slots 0..{@code last} of one kind's block between two snapshots. */
    private static long countedUpTo(long[] to, long[] from, int block, int last) {
        long n = 0;
        for (int i = block; i <= block + last; i++) {
            n += to[i] - from[i];
        }
        return n;
    }

    /** Whether any of one kind's {@code slots} latency slots changed between two snapshots. */
    private static boolean anyCounted(long[] to, long[] from, int block, int slots) {
        for (int i = block; i < block + slots; i++) {
            if (to[i] != from[i]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Records one kind's slot counts between two snapshots into {@code h} (and {@code all}, when not null), each at
     * its slot's lowest value; the waits above β counted in β's slot join that slot.
     */
    private static void record(
            long[] to,
            long[] from,
            int block,
            LatencyLayout layout,
            int betaIndex,
            long aboveBetaInItsSlot,
            Histogram h,
            Histogram all) {
        for (int i = 0; i < layout.length; i++) {
            long c = to[block + i] - from[block + i];
            if (i == betaIndex) {
                c += aboveBetaInItsSlot;
            }
            if (c != 0) {
                long value = layout.lowestValue(i);
                h.recordValueWithCount(value, c);
                if (all != null) {
                    all.recordValueWithCount(value, c);
                }
            }
        }
    }
}
