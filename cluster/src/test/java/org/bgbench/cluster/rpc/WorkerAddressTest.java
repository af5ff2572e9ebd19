package org.bgbench.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.bgbench.cluster.rpc.WorkerException.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where a worker listens and what a client finds there: a closed port, another address, a gRPC server that is not a
 * worker, a port in use.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WorkerAddressTest extends LoopbackTransport {
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    @Test
    void anUnreachableWorkerFailsFast() throws Exception {
        int port = closedPort();
        WorkerClient client = client("127.0.0.1", port, SECRET);

        for (int attempt = 0; attempt < 2; attempt++) {
            long start = System.nanoTime();
            WorkerException e = catchThrowableOfType(
                    WorkerException.class, () -> client.call("ping", null, Duration.ofSeconds(30)));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
            assertThat(e).hasMessageStartingWith("worker 127.0.0.1:" + port + " is unreachable (connection refused)");
            assertThat(ms).isLessThan(5000);
        }
        long start = System.nanoTime();
        WorkerException e = catchThrowableOfType(
                WorkerException.class,
                () -> client.stream("tick", null, Duration.ofSeconds(30), Duration.ofSeconds(60), m -> {}));
        assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5000);
    }

    @Test
    void theServerListensOnlyOnTheGivenAddress() throws Exception {
        TestBackend backend = new TestBackend();
        backend.unary = (op, args) -> NODES.textNode("pong");
        WorkerServer server = server("127.0.0.2", backend);
        assertThat(server.address().getAddress().getHostAddress()).isEqualTo("127.0.0.2");

        WorkerException e = catchThrowableOfType(
                WorkerException.class,
                () -> client("127.0.0.1", server.port(), SECRET).call("ping", null, Duration.ofSeconds(10)));
        assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat(client("127.0.0.2", server.port(), SECRET)
                        .call("ping", null, Duration.ofSeconds(5))
                        .asText())
                .isEqualTo("pong");
    }

    @Test
    void aGrpcServerThatIsNotAWorkerIsUnreachable() throws Exception {
        Server other = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .build()
                .start();
        toClose.add(() -> other.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
        WorkerClient client = client("127.0.0.1", other.getPort(), SECRET);

        WorkerException e =
                catchThrowableOfType(WorkerException.class, () -> client.call("ping", null, Duration.ofSeconds(5)));
        assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat(e).hasMessageContaining("is not a BG worker");
    }

    @Test
    void aPortInUseIsReportedClearly() throws Exception {
        WorkerServer first = server("127.0.0.1", new TestBackend());
        assertThatThrownBy(() ->
                        WorkerServer.start(new InetSocketAddress("127.0.0.1", first.port()), SECRET, new TestBackend()))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("cannot listen on 127.0.0.1:" + first.port());
    }
}
