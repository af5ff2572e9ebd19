package org.bgbench.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.assertj.core.data.Percentage;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.metrics.PrometheusParsers.Format;
import org.bgbench.metrics.PrometheusParsers.Sample;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.ValidationOptions;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real experiment against the memory store with the endpoint on a free loopback port, scraped over HTTP while it
 * runs and after it, each body checked by promtool and parsed by the Prometheus Python client: after the run the
 * counters per action equal the result file's, each histogram's count equals its completed counter and its buckets
 * are cumulative, and the gauges say the experiment is over.
 */
@Tag("server")
class MetricsEndpointTest {
    private static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(400)
            .friendsPerMember(10)
            .resourcesPerMember(5)
            .commentsPerResource(2)
            .confirmedFraction(0.8)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(4)
            .seed(3)
            .build());

    @TempDir
    Path dir;

    @Test
    void anExperimentIsScrapedDuringAndAfterItsRunAndAddsUpToItsResult() throws Exception {
        PrometheusParsers.requireTools();
        Path out = dir.resolve("scraped.json");
        try (MetricsEndpoint endpoint =
                        MetricsEndpoint.start("--metrics", MetricsEndpoint.parse("--metrics", "127.0.0.1:0"), "local");
                DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "scraped")))) {
            assertThat(endpoint.port()).isPositive();
            assertThat(endpoint.url()).isEqualTo("http://127.0.0.1:" + endpoint.port() + "/metrics");
            StoreConformanceSuite.load(store, GRAPH, 2);
            WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
            ExperimentSpec spec = ExperimentSpec.timed(
                    ws,
                    2,
                    Duration.ofSeconds(3),
                    Duration.ofSeconds(1),
                    EmulatorConfig.ThreadKind.PLATFORM,
                    Duration.ofMillis(100),
                    new ValidationOptions(64L << 20, 1, 10, 0.01, false));
            CompletableFuture<Experiment.Outcome> run =
                    CompletableFuture.supplyAsync(() -> Experiment.run(new Experiment.Setup(
                            new Experiment.Subject(store, "memory", Map.of()),
                            new GraphState(GRAPH),
                            ws,
                            spec,
                            new Experiment.Output(out, null))));

            // During the run: a measured second has been counted while the experiment still runs.
            List<Sample> during = null;
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!run.isDone() && System.nanoTime() < deadline) {
                String body = PrometheusParsers.scrape(endpoint.url(), Format.TEXT);
                List<Sample> samples = PrometheusParsers.parse(body, Format.TEXT);
                if (sum(samples, "bg_running") == 1
                        && sum(samples, "bg_warmup") == 0
                        && sum(samples, "bg_completed_total") > 0) {
                    PrometheusParsers.promtoolCheck(body);
                    during = samples;
                    break;
                }
                Thread.sleep(200);
            }
            Experiment.Outcome o = run.get();
            assertThat(during).as("a scrape while the experiment was measuring").isNotNull();
            assertThat(value(during, "bg_threads", "memory")).isEqualTo(2);
            assertThat(value(during, "bg_beta_seconds", "memory")).isEqualTo(0.1);

            String body = PrometheusParsers.scrape(endpoint.url(), Format.TEXT);
            PrometheusParsers.promtoolCheck(body);
            List<Sample> after = PrometheusParsers.parse(body, Format.TEXT);
            RunResult result = ResultJson.read(out);
            assertThat(result.total().count()).isPositive();
            checkAgainstResult(after, result);
            assertThat(value(after, "bg_running", "memory")).isZero();
            assertThat(value(after, "bg_warmup", "memory")).isZero();
            assertThat(value(after, "bg_experiments_total", "memory")).isEqualTo(1);
            assertThat(value(after, "bg_experiments_finished_total", "memory")).isEqualTo(1);
            assertThat(result.unpredictable()).as("the run was validated").isNotNull();
            assertThat(value(after, "bg_reads_checked", "memory"))
                    .isEqualTo(result.unpredictable().readsChecked())
                    .isPositive();
            assertThat(value(after, "bg_unpredictable_reads", "memory"))
                    .isEqualTo(result.unpredictable().unpredictableReads());
            assertThat(value(after, "bg_unpredictable_reads_ratio", "memory"))
                    .isEqualTo(result.unpredictable().pct() / 100);
            assertThat(o.result().total().count()).isEqualTo(result.total().count());

            // The same figures in OpenMetrics, for a scraper that asks for it.
            List<Sample> open = PrometheusParsers.parse(
                    PrometheusParsers.scrape(endpoint.url(), Format.OPENMETRICS), Format.OPENMETRICS);
            checkAgainstResult(open, result);
        }
    }

    private static void checkAgainstResult(List<Sample> samples, RunResult result) {
        Map<String, KindResult> kinds = new LinkedHashMap<>(result.actions());
        kinds.putAll(result.sessions());
        for (Map.Entry<String, KindResult> e : kinds.entrySet()) {
            String code = e.getKey();
            KindResult r = e.getValue();
            String kind = result.actions().containsKey(code) ? "action" : "session";
            assertThat(counter(samples, "bg_completed_total", code, kind))
                    .as(code)
                    .isEqualTo(r.count());
            assertThat(counter(samples, "bg_errors_total", code, kind)).as(code).isEqualTo(r.errors());
            assertThat(counter(samples, "bg_noops_total", code, kind)).as(code).isEqualTo(r.noops());
            assertThat(counter(samples, "bg_stuck_total", code, kind)).as(code).isEqualTo(r.stuck());
            assertThat(counter(samples, "bg_within_beta_total", code, kind))
                    .as(code)
                    .isEqualTo(r.withinBetaCount());
            assertThat(counter(samples, "bg_latency_seconds_count", code, kind))
                    .as(code)
                    .isEqualTo(r.count());
            List<Sample> buckets = samples.stream()
                    .filter(s -> s.name().equals("bg_latency_seconds_bucket")
                            && code.equals(s.labels().get("action")))
                    .toList();
            assertThat(buckets).as(code).hasSize(LatencyBuckets.BOUNDS_SECONDS.length + 1);
            List<Double> bounds = new ArrayList<>();
            double previous = -1;
            for (Sample b : buckets) {
                assertThat(b.type()).isEqualTo("histogram");
                assertThat(b.labels())
                        .containsEntry("store", "memory")
                        .containsEntry("worker", "local")
                        .containsEntry("kind", kind);
                assertThat(b.value()).as(code + " le=" + b.labels().get("le")).isGreaterThanOrEqualTo(previous);
                previous = b.value();
                String le = b.labels().get("le");
                bounds.add(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le));
            }
            assertThat(bounds).isSorted().last().isEqualTo(Double.POSITIVE_INFINITY);
            assertThat(previous).as(code + " +Inf").isEqualTo(r.count());
            if (r.count() > 0) {
                // The sum is within HdrHistogram's precision of count × mean.
                assertThat(counter(samples, "bg_latency_seconds_sum", code, kind))
                        .isCloseTo(r.count() * r.meanMs() / 1e3, Percentage.withPercentage(1));
            }
        }
        assertThat(sum(samples, "bg_completed_total")).isPositive();
    }

    private static double counter(List<Sample> samples, String name, String code, String kind) {
        List<Sample> found = samples.stream()
                .filter(s -> s.name().equals(name) && code.equals(s.labels().get("action")))
                .toList();
        assertThat(found).as(name + "{action=" + code + "}").hasSize(1);
        assertThat(found.get(0).labels())
                .containsEntry("store", "memory")
                .containsEntry("worker", "local")
                .containsEntry("kind", kind);
        return found.get(0).value();
    }

    private static double value(List<Sample> samples, String name, String store) {
        List<Sample> found = samples.stream()
                .filter(s -> s.name().equals(name) && store.equals(s.labels().get("store")))
                .toList();
        assertThat(found)
                .as(name + " " + samples.stream().map(Sample::name).collect(Collectors.toSet()))
                .hasSize(1);
        assertThat(found.get(0).labels()).containsEntry("worker", "local");
        return found.get(0).value();
    }

    private static double sum(List<Sample> samples, String name) {
        return samples.stream()
                .filter(s -> s.name().equals(name))
                .mapToDouble(Sample::value)
                .sum();
    }

    @Test
    void badAddressesAreBadInputNamingTheOption() throws Exception {
        assertThatThrownBy(() -> MetricsEndpoint.parse("--metrics", "9464"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("--metrics: expected HOST:PORT");
        assertThatThrownBy(() -> MetricsEndpoint.parse("--metrics", "localhost:"))
                .hasMessageContaining("expected HOST:PORT");
        assertThatThrownBy(() -> MetricsEndpoint.parse("--metrics", "localhost:http"))
                .hasMessageContaining("the port must be a number");
        assertThatThrownBy(() -> MetricsEndpoint.parse("--metrics", "localhost:70000"))
                .hasMessageContaining("the port must be 0..65535");
        assertThatThrownBy(() -> MetricsEndpoint.parse("--metrics", "no-such-host.invalid:9464"))
                .hasMessageContaining("unknown host 'no-such-host.invalid'");
        assertThatThrownBy(() -> MetricsEndpoint.parse("--metrics", "::1:9464")).hasMessageContaining("brackets");
        assertThat(MetricsEndpoint.parse("--metrics", "[::1]:9464").getPort()).isEqualTo(9464);
        try (MetricsEndpoint first =
                MetricsEndpoint.start("--metrics", MetricsEndpoint.parse("--metrics", "127.0.0.1:0"), "local")) {
            assertThatThrownBy(() -> MetricsEndpoint.start(
                            "--metrics", MetricsEndpoint.parse("--metrics", "127.0.0.1:" + first.port()), "local"))
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("--metrics: cannot listen on 127.0.0.1:" + first.port());
        }
    }
}
