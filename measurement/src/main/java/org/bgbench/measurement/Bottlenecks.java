package org.bgbench.measurement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Finds what, besides the store, may have limited a run [dissertation app. B: a "bottleneck node" has a fully utilized CPU,
 * network or disk]. A rating is only meaningful when BG itself was not the bottleneck.
 */
final class Bottlenecks {
    /** A CPU counts as saturated at 90 % of its cores: sampling and scheduling noise keep real saturation below 100 %. */
    static final double SATURATED = 0.9;
    /** BG-internal waiting worth reporting, relative to the time spent in the store. */
    static final double BG_WAIT_FRACTION = 0.10;
    /** Share of attempted actions that were no-ops from which the issued mix visibly differs from the configured one. */
    static final double NOOP_FRACTION = 0.01;
    /** Share of the machine's CPUs idle in I/O wait that hints at a disk bottleneck. */
    static final double IOWAIT_FRACTION = 0.2;
    /** Share of seconds with a saturated BG CPU reported even when the average is below saturation. */
    static final double SATURATED_SECONDS = 0.2;
    /** Share of a second's calls that failed from which that second is named: a store failing a large part of them. */
    static final double ERROR_SHARE = 0.1;

    private Bottlenecks() {}

    static List<String> warnings(RunResult r, double periodS) {
        return warnings(r, periodS, false);
    }

    /**
     * @param bgCpuIncludesStore the store ran inside BG's process, so BG's CPU includes the store's work: a saturated BG
     *     then says nothing about BG itself, and no warning about it is given (the user could not act on it)
     */
    static List<String> warnings(RunResult r, double periodS, boolean bgCpuIncludesStore) {
        List<String> w = new ArrayList<>();
        KindResult total = r.total();
        CpuResult cpu = r.cpu();
        long attempted = total.count() + total.errors() + total.noops();
        if (r.durationS() > 0 && total.count() == 0) {
            w.add("no actions completed in the measured period: check that the store is up and answers BG's calls");
        }

        boolean bgSaturated = cpu.bgCores() != null && cpu.bgCores() >= SATURATED * cpu.bgAvailableCores();
        if (!bgCpuIncludesStore) {
            bgCpu(r, bgSaturated, w);
        }
        if (!bgSaturated && cpu.machineCores() != null && cpu.machineCores() >= SATURATED * cpu.machineCpus()) {
            w.add(fmt(
                    "the machine's CPU was saturated (%.1f of %d cores): BG competes with %s for it; %s",
                    cpu.machineCores(),
                    cpu.machineCpus(),
                    cpu.storePids().isEmpty() ? "other processes" : "the store",
                    cpu.storePids().isEmpty()
                            ? "run on a quieter machine"
                            : "run BG and the store on separate machines"));
        }
        if (cpu.storeCores() != null && cpu.storeCores() >= SATURATED * cpu.machineCpus()) {
            w.add(fmt(
                    "the store's processes used %.1f of %d cores: the store is CPU-bound",
                    cpu.storeCores(), cpu.machineCpus()));
        }
        if (cpu.machineIowaitCores() != null && cpu.machineIowaitCores() >= IOWAIT_FRACTION * cpu.machineCpus()) {
            w.add(fmt(
                    "CPUs sat idle waiting for I/O (%.1f of %d cores): a local disk may be the bottleneck",
                    cpu.machineIowaitCores(), cpu.machineCpus()));
        }

        nodes(r, w);

        Double waited = r.bgWait().fraction();
        if (waited != null && waited >= BG_WAIT_FRACTION) {
            w.add(fmt(
                    "threads waited inside BG for %.0f %% as long as the store took (member locks, finding a free"
                            + " socialite): use more members or fewer threads",
                    100 * waited));
        }
        if (total.errors() > 0) {
            w.add(fmt(
                    "%,d actions failed (%.2f %% of attempted actions)%s; errors count against the SLA",
                    total.errors(), 100.0 * total.errors() / attempted, errorSeconds(r.series())));
        }
        if (attempted > 0 && total.noops() > NOOP_FRACTION * attempted) {
            w.add(fmt(
                    "no-ops were %.1f %% of attempted actions (%s): the issued mix differs from the configured mix%s",
                    100.0 * total.noops() / attempted, noopKinds(r.actions()), invitationHint(r.actions())));
        }
        sessionNoops(r, w);

        List<SeriesPoint> series = r.series();
        // The last interval ends at stopMeasuring(), not at a tick, so only the others are checked.
        double longest = series.stream()
                .limit(Math.max(0, series.size() - 1))
                .mapToDouble(SeriesPoint::intervalS)
                .max()
                .orElse(0);
        if (longest > 2 * periodS) {
            w.add(fmt(
                    "a sampling interval took %.1f s instead of %.1f s: BG's JVM stalled (GC pause or CPU"
                            + " starvation)",
                    longest, periodS));
        }
        if (total.maxMs() != null && total.maxMs() >= Latencies.millis(Latencies.HIGHEST_NS)) {
            w.add("some latencies reached the histogram's 1 h limit and were recorded as 1 h");
        }
        return w;
    }

    /** BG's own CPU saturated on average, or in enough of the seconds. */
    private static void bgCpu(RunResult r, boolean bgSaturated, List<String> w) {
        CpuResult cpu = r.cpu();
        if (bgSaturated) {
            w.add(fmt(
                    "BG's own CPU was saturated (%.1f of %d cores): BG, not only the store, limited the throughput;"
                            + " use fewer threads per worker or more workers",
                    cpu.bgCores(), cpu.bgAvailableCores()));
        } else {
            long saturatedSeconds = r.series().stream()
                    .filter(p -> p.bgCores() != null && p.bgCores() >= SATURATED * cpu.bgAvailableCores())
                    .count();
            if (saturatedSeconds >= 2
                    && saturatedSeconds >= SATURATED_SECONDS * r.series().size()) {
                w.add(fmt(
                        "BG's own CPU was saturated in %,d of %,d seconds (%d cores): use fewer threads per worker or more workers",
                        saturatedSeconds, r.series().size(), cpu.bgAvailableCores()));
            }
        }
    }

    /**
     * The nodes' saturated resources [dissertation app. B: a bottleneck node has a fully utilized CPU, network or disk]:
     * a store host's CPU (BG's machine's CPU has its own warnings above), any node's busiest disk, and the store hosts
     * that did not answer for some seconds (their figures cover the rest).
     */
    private static void nodes(RunResult r, List<String> w) {
        for (NodeResult n : r.nodes()) {
            String which = "bg".equals(n.role()) ? "BG's machine " + n.name() : "store host " + n.name();
            Double busy = n.busyCores().mean();
            if (!"bg".equals(n.role()) && busy != null && n.cpus() > 0 && busy >= SATURATED * n.cpus()) {
                w.add(fmt(
                        "%s: its CPU was saturated (%.1f of %d cores busy on average): this node limited the run",
                        which, busy, n.cpus()));
            }
            Double disk = n.diskBusyPct().mean();
            if (disk != null && disk >= 100 * SATURATED) {
                w.add(fmt(
                        "%s: its busiest disk was busy %.0f %% of the time: this node's disk limited the run",
                        which, disk));
            }
            if (n.missingSeconds() > 0 && !"bg".equals(n.role())) {
                w.add(
                        n.seconds() == 0
                                ? fmt(
                                        "%s: its node exporter did not answer in any of the %,d measured seconds, so the result has"
                                                + " no figures of it",
                                        which, n.missingSeconds())
                                : fmt(
                                        "%s: its node exporter did not answer in %,d of %,d measured seconds; its figures cover the"
                                                + " other seconds",
                                        which, n.missingSeconds(), n.missingSeconds() + n.seconds()));
            }
        }
    }

    /**
     * The seconds in which failures were a large share of the calls, e.g. ", and at least 10 % of the calls in 10 of
     * 14 seconds: second 4 (35 %), seconds 5–14 (100 %)": a run's total can hide a store that failed every call for
     * seconds while it completed thousands a second before. Empty when there are none.
     */
    static String errorSeconds(List<SeriesPoint> series) {
        List<String> runs = new ArrayList<>();
        int named = 0;
        int i = 0;
        while (i < series.size()) {
            Double pct = series.get(i).errorPct();
            if (pct == null || pct < 100 * ERROR_SHARE) {
                i++;
                continue;
            }
            int from = i;
            double low = pct;
            double high = pct;
            while (i + 1 < series.size()
                    && series.get(i + 1).errorPct() != null
                    && series.get(i + 1).errorPct() >= 100 * ERROR_SHARE) {
                i++;
                low = Math.min(low, series.get(i).errorPct());
                high = Math.max(high, series.get(i).errorPct());
            }
            int first = series.get(from).second();
            int last = series.get(i).second();
            named += i - from + 1;
            String share = Math.round(low) == Math.round(high) ? fmt("%.0f %%", low) : fmt("%.0f–%.0f %%", low, high);
            runs.add(
                    first == last
                            ? fmt("second %,d (%s)", first, share)
                            : fmt("seconds %,d–%,d (%s)", first, last, share));
            i++;
        }
        return runs.isEmpty()
                ? ""
                : fmt(
                        ", and at least %.0f %% of the calls in %,d of %,d seconds: %s",
                        100 * ERROR_SHARE, named, series.size(), String.join(", ", runs));
    }

    /**
     * Sessions that end as no-ops (no valid target for their write step, dissertation 3.3) leave the issued mix short of
     * that write as much as an action no-op does; their actions ran and are not no-ops, so sessions are counted apart.
     */
    private static void sessionNoops(RunResult r, List<String> w) {
        long attempted = 0;
        long noops = 0;
        for (KindResult s : r.sessions().values()) {
            attempted += s.count() + s.errors() + s.noops();
            noops += s.noops();
        }
        if (attempted > 0 && noops > NOOP_FRACTION * attempted) {
            w.add(fmt(
                    "no-ops were %.1f %% of attempted sessions (%s): those sessions ended without their write, so the"
                            + " issued mix differs from the configured mix",
                    100.0 * noops / attempted, noopKinds(r.sessions())));
        }
    }

    /** The actions (or sessions) with the most no-ops, with each one's no-op share of its own attempts. */
    private static String noopKinds(Map<String, KindResult> actions) {
        return actions.entrySet().stream()
                .filter(e -> e.getValue().noops() > 0)
                .sorted(Comparator.comparingLong((Map.Entry<String, KindResult> e) ->
                                e.getValue().noops())
                        .reversed())
                .limit(4)
                .map(e -> {
                    KindResult k = e.getValue();
                    return fmt("%s %.0f %%", e.getKey(), 100.0 * k.noops() / (k.count() + k.errors() + k.noops()));
                })
                .reduce((a, b) -> a + ", " + b)
                .orElse("");
    }

    /**
     * What to do when accepting or rejecting found nothing to act on: a graph whose friendships all start confirmed
     * (USC BG's default) holds no pending invitation until members invite.
     */
    private static String invitationHint(Map<String, KindResult> actions) {
        boolean starved = Stream.of("AFR", "RFR")
                .map(actions::get)
                .anyMatch(k -> k != null && k.noops() > 0 && k.noops() >= (k.count() + k.errors() + k.noops()) / 2);
        return starved
                ? "; accepting and rejecting found no pending invitation: load a graph with some (e.g. -p"
                        + " confperc=0.9, a tenth of the friendships pending) or run longer so invitations accumulate"
                : "";
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
