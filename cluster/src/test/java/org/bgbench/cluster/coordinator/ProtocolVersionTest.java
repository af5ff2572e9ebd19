package org.bgbench.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.cluster.protocol.Operations;
import org.bgbench.cluster.rpc.WorkerBackend;
import org.bgbench.cluster.rpc.WorkerClient;
import org.bgbench.cluster.rpc.WorkerException;
import org.bgbench.cluster.rpc.WorkerServer;
import org.bgbench.cluster.worker.WorkerService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator and a worker of different protocol versions refuse each other at {@code hello}, in one line naming
 * both versions, over real gRPC on loopback.
 */
class ProtocolVersionTest {
    private static final String SECRET = "a-secret-for-the-version-test";

    @TempDir
    Path dir;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private String serve(WorkerBackend backend) throws Exception {
        WorkerServer s = WorkerServer.start(new InetSocketAddress("127.0.0.1", 0), SECRET, backend);
        toClose.add(s);
        return "127.0.0.1:" + s.port();
    }

    /** A worker of another version: answers {@code hello} with {@code protocol}, and nothing else. */
    private static WorkerBackend workerSpeaking(int protocol) {
        return new WorkerBackend() {
            @Override
            public JsonNode call(String op, JsonNode args) {
                return Messages.tree(new Messages.Hello("old-host", 1, 2, 1 << 30, "21", protocol));
            }

            @Override
            public JsonNode stream(String op, JsonNode args, Consumer<JsonNode> out) {
                throw new UnsupportedOperationException(op);
            }
        };
    }

    @Test
    void theCoordinatorRefusesAWorkerOfAnotherVersion() throws Exception {
        String address = serve(workerSpeaking(Operations.VERSION - 1));
        StringWriter err = new StringWriter();
        assertThatThrownBy(() -> new ClusterCoordinator(List.of(address), SECRET, null, new PrintWriter(err, true)))
                .isInstanceOf(ClusterCoordinator.ClusterException.class)
                .hasMessage("worker " + address + " speaks protocol " + (Operations.VERSION - 1) + ", this coordinator "
                        + Operations.VERSION + "; run the same BG version everywhere");
        assertThat(err.toString()).doesNotContain("cores");
    }

    @Test
    void aWorkerRefusesACoordinatorOfAnotherVersion() throws Exception {
        StringWriter log = new StringWriter();
        String address = serve(new WorkerService(dir, new PrintWriter(log, true)));
        WorkerClient older = new WorkerClient(address, SECRET);
        toClose.add(older);
        int other = Operations.VERSION - 1;

        WorkerException e = catchThrowableOfType(
                WorkerException.class,
                () -> older.call(
                        Operations.HELLO, Messages.tree(new Messages.Greeting(other)), Duration.ofSeconds(20)));
        assertThat(e.kind()).isEqualTo(WorkerException.Kind.FAILED);
        assertThat(e.badInput()).isTrue();
        assertThat(e)
                .hasMessage("worker " + address + " rejected 'hello': this worker speaks protocol " + Operations.VERSION
                        + ", the coordinator " + other + "; run the same BG version everywhere");
        assertThat(log.toString())
                .contains("bg worker: refused a coordinator: this worker speaks protocol " + Operations.VERSION
                        + ", the coordinator " + other);
        older.close();

        // The same worker greets a coordinator of its own version.
        StringWriter err = new StringWriter();
        try (ClusterCoordinator c =
                new ClusterCoordinator(List.of(address), SECRET, null, new PrintWriter(err, true))) {
            assertThat(c.names()).containsExactly(address);
        }
        assertThat(err.toString()).startsWith("bg: worker 0 " + address + ": host ");
    }
}
