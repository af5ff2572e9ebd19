package org.bgbench.deck.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.HdrHistogram.Histogram;
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SecondSample;
import org.bgbench.measurement.SeriesPoint;
import org.bgbench.measurement.resource.NodeUse;
import org.bgbench.measurement.resource.ResourceUse;
import org.bgbench.runner.observe.ExperimentInfo;
import org.bgbench.runner.observe.ExperimentObserver;

/**
 * Writes every experiment's seconds as they are sampled to {@code X.live.jsonl} beside its result {@code X.json}: a
 * {@code start} line, one {@code second} line a second (warm-up flagged) and an {@code end} line. The deck tails these
 * files, so a run started from the command line is watched the same way as one started from the deck. One short line
 * a second, flushed; a write failure (a full disk) ends the file and nothing else.
 */
public final class LiveFile implements ExperimentObserver {
    /** The suffix that replaces a result's {@code .json}. */
    public static final String SUFFIX = ".live.jsonl";

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<ExperimentInfo, Writer> open = new ConcurrentHashMap<>();
    // When each experiment's first interval began (System.nanoTime): its seconds are counted from there across the
    // warm-up and the measured period, whose own numbering restarts at 1.
    private final Map<ExperimentInfo, Long> origin = new ConcurrentHashMap<>();

    /** The live file of the result {@code result}. */
    public static Path of(Path result) {
        String name = result.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return result.resolveSibling(stem + SUFFIX);
    }

    @Override
    public void started(ExperimentInfo info) {
        if (info.out() == null) {
            return;
        }
        try {
            Path file = of(info.out());
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            open.put(info, w);
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("type", "start");
            line.put("t", System.currentTimeMillis());
            line.put("store", info.store());
            line.put("mix", info.mix());
            line.put("threads", info.threads());
            line.put("beta_ms", info.betaMs());
            line.put("duration_s", info.durationS());
            line.put("warmup_s", info.warmupS());
            line.put("result", info.out().getFileName().toString());
            write(info, line);
        } catch (IOException | RuntimeException e) {
            open.remove(info);
        }
    }

    @Override
    public void second(ExperimentInfo info, SecondSample sample) {
        if (open.containsKey(info)) {
            long now = System.nanoTime();
            long from = origin.computeIfAbsent(
                    info, i -> now - (long) (sample.point().intervalS() * 1e9));
            Map<String, Object> line = secondLine(sample);
            line.put("run_s", Math.round((now - from) / 1e6) / 1e3);
            write(info, line);
        }
    }

    @Override
    public void finished(ExperimentInfo info, RunResult result) {
        if (!open.containsKey(info)) {
            return;
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("type", "end");
        line.put("t", System.currentTimeMillis());
        line.put("throughput", result.throughput());
        line.put(
                "within_beta_pct",
                result.total() == null ? null : result.total().withinBetaPct());
        line.put(
                "unpredictable_pct",
                result.unpredictable() == null ? null : result.unpredictable().pct());
        // The finished run's summary on the live page.
        line.put("p95_ms", result.total() == null ? null : result.total().p95Ms());
        line.put("actions", result.total() == null ? null : result.total().count());
        line.put("errors", result.total() == null ? null : result.total().errors());
        Object completed = result.config().get("completed");
        line.put("completed", completed);
        write(info, line);
        Writer w = open.remove(info);
        origin.remove(info);
        try {
            w.close();
        } catch (IOException e) {
            // the lines are flushed already
        }
    }

    /** The figures of one second, per action too: what the live view plots. */
    static Map<String, Object> secondLine(SecondSample sample) {
        SeriesPoint p = sample.point();
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("type", "second");
        line.put("t", System.currentTimeMillis());
        line.put("warmup", sample.warmup());
        line.put("second", p.second());
        line.put("interval_s", p.intervalS());
        line.put("throughput", p.throughput());
        line.put("actions", p.actions());
        line.put("sessions", p.sessions());
        line.put("errors", p.errors());
        line.put("noops", p.noops());
        line.put("p50_ms", p.p50Ms());
        line.put("p95_ms", p.p95Ms());
        line.put("p99_ms", p.p99Ms());
        line.put("within_beta_pct", p.withinBetaPct());
        Map<String, Object> kinds = new LinkedHashMap<>();
        double seconds = p.intervalS() > 0 ? p.intervalS() : 1;
        for (KindCounts k : sample.kinds()) {
            Histogram h = k.latencies();
            long n = k.count();
            if (n == 0 && k.errors() == 0 && k.noops() == 0) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("n", n);
            m.put("throughput", n / seconds);
            m.put("p95_ms", h.getTotalCount() > 0 ? Latencies.millis(h.getValueAtPercentile(95)) : null);
            m.put("within_beta_pct", n > 0 ? 100.0 * k.withinBeta() / n : null);
            m.put("errors", k.errors());
            m.put("noops", k.noops());
            kinds.put(k.code(), m);
        }
        line.put("kinds", kinds);
        line.put("nodes", Nodes.of(sample.resources()));
        return line;
    }

    private void write(ExperimentInfo info, Map<String, Object> line) {
        Writer w = open.get(info);
        if (w == null) {
            return;
        }
        try {
            w.write(JSON.writeValueAsString(line));
            w.write('\n');
            w.flush();
        } catch (IOException | RuntimeException e) {
            open.remove(info);
            origin.remove(info);
            try {
                w.close();
            } catch (IOException ignored) {
                // already failing
            }
        }
    }

    /** The nodes' resources of one second as the live view shows them. */
    static final class Nodes {
        private Nodes() {}

        static List<Map<String, Object>> of(ResourceUse use) {
            List<Map<String, Object>> nodes = new ArrayList<>();
            if (use == null) {
                return nodes;
            }
            for (NodeUse n : use.nodes()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", n.role().equals("bg") ? "BG (" + n.name() + ")" : n.name());
                m.put("role", n.role());
                m.put("answered", n.answered());
                m.put("cpus", n.cpus());
                m.put("busy_cores", finite(n.busyCores()));
                if (n.role().equals("bg")) {
                    m.put("bg_cores", finite(use.bgCores()));
                    m.put("iowait_cores", finite(use.machineIowaitCores()));
                }
                m.put("mem_used_bytes", finite(n.memUsedBytes()));
                m.put("mem_total_bytes", finite(n.memTotalBytes()));
                m.put("net_rx_bytes_per_s", finite(n.netRxBytesPerS()));
                m.put("net_tx_bytes_per_s", finite(n.netTxBytesPerS()));
                m.put("lo_bytes_per_s", finite(n.loBytesPerS()));
                m.put("disk_read_bytes_per_s", finite(n.diskReadBytesPerS()));
                m.put("disk_write_bytes_per_s", finite(n.diskWriteBytesPerS()));
                m.put("disk_busy_pct", finite(n.diskBusyPct()));
                nodes.add(m);
            }
            if (nodes.isEmpty()) {
                Map<String, Object> bg = new LinkedHashMap<>();
                bg.put("name", "BG");
                bg.put("role", "bg");
                bg.put("cpus", use.machineCpus());
                bg.put("busy_cores", finite(use.machineCores()));
                bg.put("bg_cores", finite(use.bgCores()));
                bg.put("iowait_cores", finite(use.machineIowaitCores()));
                nodes.add(bg);
            }
            if (Double.isFinite(use.storeCores())) {
                // The store's server processes on BG's machine (a local server), a share of that machine.
                Map<String, Object> store = new LinkedHashMap<>();
                store.put("name", "store processes on BG's machine");
                store.put("role", "store");
                store.put("cpus", use.machineCpus());
                store.put("busy_cores", use.storeCores());
                nodes.add(store);
            }
            return nodes;
        }

        private static Double finite(double v) {
            return Double.isFinite(v) ? v : null;
        }
    }
}
