package org.bgbench.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.bgbench.cluster.protocol.Operations;
import org.bgbench.cluster.rpc.WorkerBackend;
import org.bgbench.cluster.rpc.WorkerServer;
import org.bgbench.cluster.worker.WorkerService;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator and two real workers (gRPC on loopback) sharing one memory store: an experiment that fails on every
 * worker before any member acted gives the store the mark it had back, and the next run is not refused.
 */
class MarkGiveBackTest {
    private static final String SECRET = "a-secret-for-the-give-back-test";
    private static final String STORE = "mark-give-back-test";
    private static final Map<String, String> PARAMS = Map.of(
            "usercount",
            "200",
            "friendcountperuser",
            "4",
            "resourcecountperuser",
            "2",
            "fragments",
            "2",
            MemoryStoreProvider.NAME_KEY,
            STORE);

    @TempDir
    Path dir;

    private final List<WorkerServer> servers = new ArrayList<>();
    /** While set, each worker's run fails as its set-up would, before any member acts. */
    private volatile boolean failRuns;

    @AfterEach
    void stop() {
        servers.forEach(WorkerServer::close);
        MemoryStoreProvider.discard(STORE);
    }

    private String worker(int k) throws Exception {
        WorkerService service = new WorkerService(dir.resolve("w" + k), new PrintWriter(new StringWriter(), true));
        WorkerBackend backend = new WorkerBackend() {
            @Override
            public JsonNode call(String op, JsonNode args) throws Exception {
                return service.call(op, args);
            }

            @Override
            public JsonNode stream(String op, JsonNode args, Consumer<JsonNode> out) throws Exception {
                if (op.equals(Operations.RUN) && failRuns) {
                    throw new IllegalStateException("the run's set-up failed on worker " + k);
                }
                return service.stream(op, args, out);
            }
        };
        WorkerServer s = WorkerServer.start(new InetSocketAddress("127.0.0.1", 0), SECRET, backend);
        servers.add(s);
        return "127.0.0.1:" + s.port();
    }

    private static String mark() {
        try (DataStore s =
                new MemoryStoreProvider().open(StoreSettings.of(Map.of(MemoryStoreProvider.NAME_KEY, STORE)))) {
            return s.stateMark().orElse("(none)");
        }
    }

    @Test
    void anExperimentThatFailsBeforeAnyMemberActedGivesTheMarkBack() throws Exception {
        SocialGraph graph = new SocialGraph(GraphParameters.toSpec(PARAMS));
        WorkloadSpec workload = WorkloadParameters.toSpec(Map.of("mix", "high"));
        ExperimentSpec spec = ExperimentSpec.timed(
                workload,
                2,
                Duration.ofSeconds(1),
                Duration.ZERO,
                EmulatorConfig.ThreadKind.PLATFORM,
                Duration.ofMillis(100),
                null);
        StringWriter err = new StringWriter();
        try (ClusterCoordinator c =
                new ClusterCoordinator(List.of(worker(0), worker(1)), SECRET, null, new PrintWriter(err, true))) {
            c.open("memory", PARAMS, graph, workload, new double[] {1, 1}, false);
            c.load(2);
            String loaded = mark();
            assertThat(loaded).startsWith("loaded:");

            failRuns = true;
            assertThatThrownBy(() -> c.run(spec, null, null))
                    .isInstanceOf(ClusterCoordinator.ClusterException.class)
                    .hasMessageContaining("the run's set-up failed");
            assertThat(mark())
                    .as("no member acted: the store has its mark back")
                    .isEqualTo(loaded);

            failRuns = false;
            c.open("memory", PARAMS, graph, workload, new double[] {1, 1}, false);
            c.requireState();
            ClusterCoordinator.Outcome o = c.run(spec, null, null);
            assertThat(o.completed()).as(o.reason()).isTrue();
            assertThat(mark()).startsWith("state:");
        }
    }
}
