package org.bgbench.cluster.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.bgbench.cluster.coordinator.ClusterCoordinator.ClusterException;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.cluster.protocol.Operations;
import org.bgbench.cluster.rpc.WorkerClient;
import org.bgbench.cluster.rpc.WorkerException;
import org.bgbench.cluster.security.TlsClient;
import org.bgbench.model.InvalidParameterException;

/**
 * The coordinator's connected workers, in {@code --workers} order: their clients and addresses, and operations on all
 * of them at once. {@link #connect} greets each one and refuses a worker of another protocol version.
 */
final class Workers implements AutoCloseable {
    /** The deadline of a short operation. */
    static final Duration CALL = Duration.ofSeconds(60);

    private final List<WorkerClient> clients = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();

    /** An operation on worker {@code worker}. */
    @FunctionalInterface
    interface Op {
        JsonNode apply(int worker, WorkerClient client);
    }

    private Workers() {}

    /**
     * Connects to every worker and greets it ({@code hello}): a worker of another protocol version is refused (and
     * refuses this coordinator) in one line naming both versions. Prints one line per worker to {@code err}.
     *
     * @param tls the channel's TLS, or null for plaintext
     */
    static Workers connect(List<String> addresses, String secret, TlsClient tls, PrintWriter err) {
        if (secret == null || secret.isEmpty()) {
            throw new InvalidParameterException("--secret", "the workers' shared secret is required with --workers");
        }
        Workers w = new Workers();
        for (String a : addresses) {
            try {
                w.clients.add(new WorkerClient(a.trim(), secret, tls));
            } catch (IllegalArgumentException e) {
                w.clients.forEach(WorkerClient::close);
                w.pool.shutdownNow();
                throw new InvalidParameterException("--workers", e.getMessage());
            }
            w.names.add(a.trim());
        }
        try {
            w.greet(err);
        } catch (RuntimeException e) {
            // The workers that answered serve this coordinator now: end their sessions so the next one need not wait.
            w.clients.forEach(WorkerClient::close);
            w.pool.shutdownNow();
            throw e;
        }
        err.flush();
        return w;
    }

    private void greet(PrintWriter err) {
        JsonNode greeting = Messages.tree(Messages.Greeting.mine());
        List<JsonNode> hello = all(c -> c.call(Operations.HELLO, greeting, CALL));
        for (int k = 0; k < hello.size(); k++) {
            Messages.Hello h = Messages.read(hello.get(k), Messages.Hello.class);
            if (h.protocol() != Operations.VERSION) {
                throw new ClusterException(
                        "worker " + names.get(k) + " speaks protocol " + h.protocol() + ", this coordinator "
                                + Operations.VERSION + "; run the same BG version everywhere",
                        null);
            }
            err.printf(
                    Locale.ROOT,
                    "bg: worker %d %s: host %s, %d cores, pid %d%n",
                    k,
                    names.get(k),
                    h.host(),
                    h.cores(),
                    h.pid());
        }
    }

    int size() {
        return clients.size();
    }

    WorkerClient get(int k) {
        return clients.get(k);
    }

    /** Worker {@code k}'s address as given. */
    String name(int k) {
        return names.get(k);
    }

    /** "worker 1 10.0.0.12:7420", as messages name a worker. */
    String label(int k) {
        return "worker " + k + " " + names.get(k);
    }

    List<String> names() {
        return names;
    }

    /** Drops worker {@code k} (ending its session); the ones after it move up. */
    void drop(int k) {
        clients.remove(k).close();
        names.remove(k);
    }

    /** Runs {@code task} on this coordinator's pool of virtual threads. */
    <T> Future<T> submit(Callable<T> task) {
        return pool.submit(task);
    }

    ExecutorService pool() {
        return pool;
    }

    /** Calls {@code op} with {@code args} on every worker at once and reads each answer as {@code type}. */
    <T> List<T> call(String op, Object args, Duration timeout, Class<T> type) {
        JsonNode a = Messages.tree(args);
        return all(c -> c.call(op, a, timeout)).stream()
                .map(n -> Messages.read(n, type))
                .toList();
    }

    List<JsonNode> all(Function<WorkerClient, JsonNode> op) {
        return each((k, c) -> op.apply(c));
    }

    /** Runs {@code op} on every worker at once; the first failure (by worker order) is thrown with its reason. */
    List<JsonNode> each(Op op) {
        List<Future<JsonNode>> fs = new ArrayList<>();
        for (int k = 0; k < clients.size(); k++) {
            int kk = k;
            fs.add(pool.submit(() -> op.apply(kk, clients.get(kk))));
        }
        List<JsonNode> out = new ArrayList<>();
        for (int k = 0; k < fs.size(); k++) {
            try {
                out.add(fs.get(k).get());
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                throw new ClusterException(
                        c instanceof WorkerException ? c.getMessage() : label(k) + ": " + c.getMessage(), c, k);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterException("interrupted while waiting for the workers", e);
            }
        }
        return out;
    }

    /** Closes every worker's store and ends its session. */
    @Override
    public void close() {
        for (WorkerClient c : clients) {
            try {
                c.call(Operations.CLOSE, Messages.tree(Messages.Ack.OK), Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                // A dead worker has nothing to close.
            }
            c.close();
        }
        pool.shutdownNow();
    }
}
