package org.bgbench.measurement.open;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.Latencies;

/**
 * The open section of a run on several workers from theirs: each worker issued its share of the rate, so counts and
 * rates add up, histograms are added (lossless: they share BG's layout), and the verdict is taken again on the
 * totals.
 */
public final class OpenModelMerger {
    private OpenModelMerger() {}

    /**
     * @param parts         the workers' open sections (nulls skipped)
     * @param schedule      the whole schedule, as the user gave it
     * @param inFlightLimit the threads of all workers together
     * @return null when no part has an open section
     */
    public static OpenModelResult merge(List<OpenModelResult> parts, String schedule, int inFlightLimit) {
        List<OpenModelResult> ps = parts.stream().filter(Objects::nonNull).toList();
        if (ps.isEmpty()) {
            return null;
        }
        OpenModelResult first = ps.get(0);
        long offered = 0;
        long started = 0;
        long queued = 0;
        long unstarted = 0;
        long late = 0;
        double rate = 0;
        Double oldest = null;
        Histogram delay = Latencies.newHistogram();
        Map<String, Histogram> service = new LinkedHashMap<>();
        List<String> reasons = new ArrayList<>();
        for (OpenModelResult p : ps) {
            offered += p.offered();
            started += p.started();
            queued += p.queued();
            unstarted += p.unstarted();
            late += p.late();
            rate += p.offeredRate();
            if (p.oldestUnstartedMs() != null) {
                oldest = oldest == null ? p.oldestUnstartedMs() : Math.max(oldest, p.oldestUnstartedMs());
            }
            delay.add(p.startDelay().histogram());
            p.service()
                    .forEach((k, v) -> service.computeIfAbsent(k, x -> Latencies.newHistogram())
                            .add(v.histogram()));
            if (!p.valid()) {
                reasons.add(p.invalidReason());
            }
        }
        double latePct = offered == 0 ? 0 : 100.0 * late / offered;
        String reason = null;
        if (latePct > first.maxLatePct()) {
            reason = String.format(
                            Locale.ROOT,
                            "BG fell behind its schedule: %.1f %% of the %,d arrivals due were "
                                    + "late (started more than %.0f ms after their due time, or %,d never started; at most %.1f %% "
                                    + "may be late)",
                            latePct,
                            offered,
                            first.maxLagMs(),
                            unstarted,
                            first.maxLatePct())
                    + (reasons.isEmpty() ? "" : "; on the workers: " + String.join("; ", reasons));
        } else if (offered == 0) {
            reason = "no arrival started in the measured period";
        }
        Map<String, LatencySummary> services = new LinkedHashMap<>();
        service.forEach((k, h) -> services.put(k, LatencySummary.of(h)));
        List<OpenModelResult.PhaseResult> phases = new ArrayList<>();
        for (int i = 0; i < first.phases().size(); i++) {
            OpenModelResult.PhaseResult f = first.phases().get(i);
            long n = 0;
            double from = 0;
            double to = 0;
            double throughput = 0;
            Histogram h = Latencies.newHistogram();
            for (OpenModelResult p : ps) {
                if (i < p.phases().size()) {
                    OpenModelResult.PhaseResult q = p.phases().get(i);
                    n += q.started();
                    from += q.fromRate();
                    to += q.toRate();
                    throughput += q.throughput();
                    h.add(q.response().histogram());
                }
            }
            phases.add(OpenModelResult.PhaseResult.builder()
                    .index(f.index())
                    .label(null)
                    .startS(f.startS())
                    .endS(f.endS())
                    .fromRate(from)
                    .toRate(to)
                    .started(n)
                    .throughput(throughput)
                    .response(LatencySummary.of(h))
                    .build());
        }
        // The whole schedule's labels (each worker's carry its share of the rates).
        String[] labels = schedule.split(",");
        List<OpenModelResult.PhaseResult> labelled = new ArrayList<>();
        for (OpenModelResult.PhaseResult p : phases) {
            String label = p.index() - 1 < labels.length ? labels[p.index() - 1].trim() : null;
            labelled.add(OpenModelResult.PhaseResult.builder()
                    .index(p.index())
                    .label(label)
                    .startS(p.startS())
                    .endS(p.endS())
                    .fromRate(p.fromRate())
                    .toRate(p.toRate())
                    .started(p.started())
                    .throughput(p.throughput())
                    .response(p.response())
                    .build());
        }
        return OpenModelResult.builder()
                .schedule(schedule)
                .process(first.process())
                .inFlightLimit(inFlightLimit)
                .maxLagMs(first.maxLagMs())
                .maxLatePct(first.maxLatePct())
                .offered(offered)
                .started(started)
                .offeredRate(rate)
                .queued(queued)
                .unstarted(unstarted)
                .oldestUnstartedMs(oldest)
                .late(late)
                .latePct(latePct)
                .startDelay(LatencySummary.of(delay))
                .valid(reason == null)
                .invalidReason(reason)
                .service(services)
                .phases(labelled)
                .build();
    }
}
