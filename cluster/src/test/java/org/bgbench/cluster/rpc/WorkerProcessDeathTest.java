package org.bgbench.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.cluster.rpc.WorkerException.Kind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A worker in a child JVM ({@link ChildWorker}) frozen or killed: HUNG within the idle timeout, or DIED. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("server")
class WorkerProcessDeathTest extends LoopbackTransport {
    @Test
    void aFrozenWorkerIsReportedAsHungWithinTheIdleTimeout() throws Exception {
        ChildWorker child = new ChildWorker(SECRET);
        toClose.add(child);
        WorkerClient client = client("127.0.0.1", child.port, SECRET);
        Duration idle = Duration.ofSeconds(2);
        AtomicLong stoppedAt = new AtomicLong();
        List<Integer> got = new CopyOnWriteArrayList<>();

        WorkerException e = catchThrowableOfType(
                WorkerException.class,
                () -> client.stream("tick", null, idle, LONG, m -> {
                    got.add(m.asInt());
                    if (got.size() == 3) {
                        try {
                            child.signal("STOP");
                        } catch (Exception ex) {
                            throw new IllegalStateException(ex);
                        }
                        stoppedAt.set(System.nanoTime());
                    }
                }));
        long ms = (System.nanoTime() - stoppedAt.get()) / 1_000_000;

        assertThat(e).isNotNull();
        assertThat(e.kind()).isEqualTo(Kind.HUNG);
        assertThat(e).hasMessageContaining("worker " + client.address() + " sent nothing for 2s during 'tick'");
        assertThat(ms).isBetween(1500L, idle.toMillis() + 3000);
        child.signal("KILL");
    }

    @Test
    void aWorkerKilledMidStreamIsReportedAsDied() throws Exception {
        ChildWorker child = new ChildWorker(SECRET);
        toClose.add(child);
        WorkerClient client = client("127.0.0.1", child.port, SECRET);
        assertThat(client.call("ping", null, Duration.ofSeconds(5)).asText()).isEqualTo("pong");
        Duration idle = Duration.ofSeconds(5);
        AtomicLong killedAt = new AtomicLong();
        AtomicInteger got = new AtomicInteger();

        WorkerException e = catchThrowableOfType(
                WorkerException.class,
                () -> client.stream("tick", null, idle, LONG, m -> {
                    if (got.incrementAndGet() == 3) {
                        child.process.destroyForcibly();
                        killedAt.set(System.nanoTime());
                    }
                }));
        long ms = (System.nanoTime() - killedAt.get()) / 1_000_000;

        assertThat(e).isNotNull();
        assertThat(e.kind()).isIn(Kind.DIED, Kind.HUNG);
        assertThat(e.worker()).isEqualTo(client.address());
        assertThat(e).hasMessageContaining("worker " + client.address());
        assertThat(ms).isLessThan(idle.toMillis() + 3000);
        System.out.println("killed worker: " + e.kind() + " after " + ms + " ms: " + e.getMessage());

        // the next call finds nobody there
        WorkerException after =
                catchThrowableOfType(WorkerException.class, () -> client.call("ping", null, Duration.ofSeconds(5)));
        assertThat(after.kind()).isEqualTo(Kind.UNREACHABLE);
    }

    @Test
    void aWorkerKilledDuringAUnaryCallIsReportedAsDiedNotAsATlsProblem() throws Exception {
        ChildWorker child = new ChildWorker(SECRET);
        toClose.add(child);
        WorkerClient client = client("127.0.0.1", child.port, SECRET);
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> catchThrowableOfType(
                WorkerException.class, () -> client.call("sleep", NODES.numberNode(20_000), LONG)));
        assertThat(child.awaitLine("SLEEPING", 20))
                .as("the call reached the worker")
                .isTrue();
        child.process.destroyForcibly();

        Throwable t = outcome.get(15, TimeUnit.SECONDS);
        assertThat(t)
                .isInstanceOfSatisfying(
                        WorkerException.class,
                        e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.DIED));
    }
}
