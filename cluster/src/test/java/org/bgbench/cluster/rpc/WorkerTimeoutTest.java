package org.bgbench.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.bgbench.cluster.rpc.WorkerException.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Heartbeats keep a quiet stream alive; deadlines, a failing handler and a closing server cancel calls and
 * interrupt the backend.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WorkerTimeoutTest extends LoopbackTransport {
    @Test
    void aLongQuietStreamIsKeptAliveByHeartbeats() throws Exception {
        TestBackend backend = new TestBackend();
        backend.streaming = (op, args, out) -> {
            out.accept(NODES.textNode("before"));
            Thread.sleep(3000);
            out.accept(NODES.textNode("after"));
            return NODES.textNode("final");
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        List<String> got = new ArrayList<>();
        JsonNode last = client.stream("quiet", null, Duration.ofSeconds(2), LONG, m -> got.add(m.asText()));

        assertThat(got).containsExactly("before", "after"); // heartbeats are not passed on
        assertThat(last.asText()).isEqualTo("final");
    }

    @Test
    void totalTimeoutCancelsTheStreamAndInterruptsTheBackend() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        TestBackend backend = new TestBackend();
        backend.streaming = (op, args, out) -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return null;
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        long start = System.nanoTime();
        WorkerException e = catchThrowableOfType(
                WorkerException.class,
                () -> client.stream("run", null, Duration.ofMillis(1500), Duration.ofMillis(1800), m -> {}));
        long ms = (System.nanoTime() - start) / 1_000_000;

        assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(e).hasMessage("worker " + client.address() + " did not finish 'run' within 1.8s");
        assertThat(ms).isBetween(1700L, 4000L);
        assertThat(interrupted.await(3, TimeUnit.SECONDS))
                .as("backend thread interrupted")
                .isTrue();
    }

    @Test
    void unaryDeadlineFailsWithTimeoutAndInterruptsTheBackend() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        TestBackend backend = new TestBackend();
        backend.unary = (op, args) -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return null;
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        long start = System.nanoTime();
        WorkerException e =
                catchThrowableOfType(WorkerException.class, () -> client.call("load", null, Duration.ofMillis(500)));
        long ms = (System.nanoTime() - start) / 1_000_000;

        assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(e).hasMessageContaining("did not finish 'load' within 500ms");
        assertThat(ms).isLessThan(2500);
        assertThat(interrupted.await(3, TimeUnit.SECONDS))
                .as("backend thread interrupted")
                .isTrue();
    }

    @Test
    void aFailingMessageHandlerCancelsTheStream() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        TestBackend backend = new TestBackend();
        backend.streaming = (op, args, out) -> {
            try {
                for (int i = 0; ; i++) {
                    out.accept(obj("i", i));
                    Thread.sleep(20);
                }
            } catch (InterruptedException | CancellationException e) {
                interrupted.countDown();
                throw e;
            }
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        assertThatThrownBy(() -> client.stream("run", null, Duration.ofSeconds(5), LONG, m -> {
                    if (m.get("i").asInt() == 3) {
                        throw new IllegalStateException("handler broke");
                    }
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("handler broke");
        assertThat(interrupted.await(3, TimeUnit.SECONDS)).as("backend stopped").isTrue();
    }

    @Test
    void closingTheServerCancelsRunningStreams() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        TestBackend backend = new TestBackend();
        backend.streaming = (op, args, out) -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return null;
        };
        WorkerServer server = server("127.0.0.1", backend);
        WorkerClient client = client("127.0.0.1", server.port(), SECRET);

        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                client.stream("run", null, Duration.ofSeconds(10), LONG, m -> {});
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        server.close();

        assertThat(interrupted.await(3, TimeUnit.SECONDS))
                .as("backend thread interrupted")
                .isTrue();
        Throwable t = outcome.get(5, TimeUnit.SECONDS);
        assertThat(t)
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.kind()).isIn(Kind.DIED, Kind.FAILED));
    }
}
