package org.bgbench.measurement;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.resource.ResourceUse;

/**
 * One sampling interval as handed to listeners: the summary {@link #point()} plus everything needed to merge intervals
 * from several workers without loss (per-kind histograms and counters). Histograms are read-only to
 * receivers: a kind that did not run in the interval shares one empty histogram; copy one to change it.
 *
 * @param warmup          true while warming up (these intervals are not part of the result)
 * @param point           the summary figures, as they appear in the result's series
 * @param kinds           per kind (actions in {@link org.bgbench.model.Action} order, then sessions) for this interval;
 *                        histograms are dense (~200 KB each): encode them ({@link Latencies#encode}, a few KB)
 *                        to keep many of them
 * @param actionLatencies latencies of all actions completed in the interval (dense)
 * @param bgWaitNanos     time threads waited inside BG in the interval
 * @param resources       CPU use in the interval
 */
public record SecondSample(
        boolean warmup,
        SeriesPoint point,
        List<KindCounts> kinds,
        Histogram actionLatencies,
        long bgWaitNanos,
        ResourceUse resources) {}
