package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the JSON keys (and their order) of a run's result and of a rating's report: readers and scripts depend on them,
 * so a change must be deliberate (and bump the format).
 */
class ResultSchemaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] GRAPH = {
        "-p", "usercount=300", "-p", "friendcountperuser=10", "-p", "resourcecountperuser=2"
    };

    @TempDir
    Path dir;

    @BeforeEach
    void state() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
    }

    private static int bg(String... args) {
        StringWriter out = new StringWriter();
        return Bg.run(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), args);
    }

    private static String[] with(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(b, 0, all, 0, b.length);
        System.arraycopy(a, 0, all, b.length, a.length);
        return all;
    }

    private static List<String> keys(JsonNode n) {
        List<String> k = new ArrayList<>();
        n.fieldNames().forEachRemaining(k::add);
        return k;
    }

    @Test
    void aRunResultHasTheKeysItHadBeforeTheEngineMoved() throws Exception {
        Path out = dir.resolve("r.json");
        assertThat(bg(with(
                        GRAPH,
                        "run",
                        "--store",
                        "memory",
                        "--workload",
                        "high",
                        "--threads",
                        "2",
                        "--duration",
                        "1s",
                        "--quiet",
                        "--out",
                        out.toString())))
                .isZero();
        JsonNode r = JSON.readTree(out.toFile());
        assertThat(keys(r))
                .containsExactly(
                        "format",
                        "partial",
                        "start_time",
                        "end_time",
                        "throughput",
                        "threads",
                        "duration_s",
                        "warmup_s",
                        "beta_ms",
                        "open",
                        "total",
                        "actions",
                        "sessions",
                        "cpu",
                        "nodes",
                        "bg_wait",
                        "bottleneck_warnings",
                        "series",
                        "histogram_config",
                        "workload",
                        "store",
                        "graph",
                        "config",
                        "unpredictable",
                        "checksum");
        // 'open' is null for the closed model (docs/open-model.md).
        assertThat(r.get("open").isNull()).isTrue();
        // 'nodes': BG's own machine at least, with these keys (docs/resources.md).
        assertThat(keys(r.get("nodes").get(0)))
                .containsExactly(
                        "name",
                        "role",
                        "cpus",
                        "seconds",
                        "missing_seconds",
                        "busy_cores",
                        "mem_used_bytes",
                        "mem_total_bytes",
                        "net_rx_bytes_per_s",
                        "net_tx_bytes_per_s",
                        "lo_bytes_per_s",
                        "disk_read_bytes_per_s",
                        "disk_write_bytes_per_s",
                        "disk_busy_pct");
        assertThat(keys(r.get("nodes").get(0).get("busy_cores"))).containsExactly("mean", "max");
        // 'stuck': actions still waiting on the store when the run ended.
        assertThat(keys(r.get("total")))
                .containsExactly(
                        "count",
                        "noops",
                        "errors",
                        "stuck",
                        "throughput",
                        "p50_ms",
                        "p95_ms",
                        "p99_ms",
                        "p999_ms",
                        "max_ms",
                        "min_ms",
                        "mean_ms",
                        "within_beta_pct",
                        "within_beta_count",
                        "error_mean_ms",
                        "hdr",
                        "bg_cpu_us",
                        "bg_cpu_samples");
        assertThat(keys(r.get("actions").get("VP"))).isEqualTo(keys(r.get("total")));
        assertThat(keys(r.get("sessions").get("VSP"))).isEqualTo(keys(r.get("total")));
        // 'bg_outside_us_per_action' beside 'bg_cpu_us' per action: BG's CPU outside the store calls.
        assertThat(keys(r.get("cpu")))
                .containsExactly(
                        "bg_cores",
                        "bg_us_per_action",
                        "store_cores",
                        "machine_cores",
                        "machine_iowait_cores",
                        "bg_cpu_s",
                        "store_cpu_s",
                        "bg_available_cores",
                        "machine_cpus",
                        "store_pids",
                        "store_processes",
                        "bg_peak_cores",
                        "store_peak_cores",
                        "machine_peak_cores",
                        "bg_outside_us_per_action");
        assertThat(keys(r.get("config")))
                .containsExactly(
                        "threads",
                        "operations",
                        "locks",
                        "unique_socialites",
                        "seed",
                        "actions",
                        "run_id",
                        "thread_kind",
                        "sched_policy",
                        "completed",
                        "abort_reason",
                        "stuck_threads",
                        "error_samples",
                        "stalled_seconds",
                        "refused_seconds",
                        "incomplete_reason",
                        "bg_cpu_includes_store",
                        "evidence");
        assertThat(keys(r.get("workload")))
                .containsExactly(
                        "mix_name",
                        "mix",
                        "write_fraction",
                        "symmetric",
                        "socialites",
                        "targets",
                        "topk",
                        "think_time_ms",
                        "inter_arrival_ms");
        assertThat(keys(r.get("store"))).containsExactly("name", "settings");
        assertThat(keys(r.get("graph")))
                .containsExactly(
                        "members",
                        "friends_per_member",
                        "resources_per_member",
                        "comments_per_resource",
                        "confirmed_fraction",
                        "images",
                        "fingerprint");
        JsonNode u = r.get("unpredictable");
        // complete, incomplete_reason, reads_unchecked and files: whether the logs were all there and
        // intact, and if not why, how many reads could not be checked, and which file is damaged where
        assertThat(keys(u))
                .containsExactly(
                        "reads_checked",
                        "unpredictable_reads",
                        "pct",
                        "tau_pct",
                        "meets_tau",
                        "complete",
                        "incomplete_reason",
                        "reads_unchecked",
                        "files",
                        "reads_skipped",
                        "actions",
                        "freshness",
                        "samples",
                        "validation");
        assertThat(u.get("complete").asBoolean()).isTrue();
        assertThat(u.get("incomplete_reason").isNull()).isTrue();
        assertThat(u.get("files").isArray()).isTrue();
        assertThat(keys(u.get("actions").get("VP"))).containsExactly("reads_checked", "unpredictable_reads", "pct");
        assertThat(keys(u.get("freshness"))).containsExactly("horizon_ms", "reads", "buckets");
        assertThat(keys(u.get("validation")))
                .containsExactly(
                        "records", "seconds", "records_per_s", "threads", "partitions", "spilled_bytes", "warnings");
        assertThat(keys(r.get("bg_wait"))).containsExactly("total_ms", "count", "action_time_ms", "fraction");
        assertThat(keys(r.get("series").get(0)))
                .containsExactly(
                        "second",
                        "elapsed_s",
                        "interval_s",
                        "actions",
                        "throughput",
                        "sessions",
                        "errors",
                        "noops",
                        "p50_ms",
                        "p95_ms",
                        "p99_ms",
                        "max_ms",
                        "within_beta_pct",
                        "bg_wait_ms",
                        "bg_cores",
                        "store_cores",
                        "machine_cores",
                        "error_pct");
    }

    @Test
    void aRatingReportHasTheKeysItHadBeforeTheEngineMoved() throws Exception {
        Path out = dir.resolve("rate");
        assertThat(bg(with(
                        GRAPH,
                        "rate",
                        "--store",
                        "memory",
                        "--workload",
                        "high",
                        "--sla",
                        "95%:100ms:0.01%:1s",
                        "--delta",
                        "1s",
                        "--max-threads",
                        "2",
                        "--target",
                        "soar",
                        "--out",
                        out.toString())))
                .isZero();
        JsonNode r = JSON.readTree(out.resolve("rating.json").toFile());
        assertThat(keys(r))
                .containsExactly(
                        "soar",
                        "socialites",
                        "experiments",
                        "experiment_count",
                        "experiments_run",
                        "cache_hits",
                        "total_seconds",
                        "experiment_seconds",
                        "warnings",
                        "complete",
                        "stop_reason",
                        "sla",
                        "settings",
                        "noisy_host",
                        "rating_time",
                        "store",
                        "workload");
        assertThat(keys(r.get("rating_time")))
                .containsExactly(
                        "total_s",
                        "model_s",
                        "zeta_s",
                        "omega",
                        "nu_s",
                        "eta",
                        "delta_s",
                        "confirmation_s",
                        "search_measured_s",
                        "reset_s",
                        "resets",
                        "reset_seconds_by_kind",
                        "repaired_relationships",
                        "repaired_comments",
                        "other_s");
        assertThat(keys(r.get("experiments").get(0)))
                .containsExactly(
                        "index",
                        "phase",
                        "threads",
                        "duration",
                        "duration_seconds",
                        "throughput",
                        "within_beta_pct",
                        "unpredictable_pct",
                        "errors",
                        "error_pct",
                        "actions",
                        "seconds",
                        "incomplete",
                        "validation_incomplete",
                        "success",
                        "failures",
                        "started",
                        "wall_seconds",
                        "resumed");
        assertThat(keys(r.get("soar")))
                .containsExactly(
                        "actions_per_second",
                        "threads",
                        "status",
                        "search_experiment",
                        "search_throughput",
                        "confirmation_experiment",
                        "confirmation_throughput",
                        "confirmation_experiments",
                        "confirmation_throughputs",
                        "lower_bound",
                        "lower_bound_reason",
                        "below_measured");
        assertThat(out.resolve("01-T1.json")).exists();
        assertThat(out.resolve("rating.svg")).exists();
        assertThat(out.resolve("rating.html")).exists();
    }
}
