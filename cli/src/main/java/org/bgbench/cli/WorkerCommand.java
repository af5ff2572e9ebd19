package org.bgbench.cli;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.bgbench.cluster.rpc.WorkerServer;
import org.bgbench.cluster.worker.WorkerService;
import org.bgbench.model.InvalidParameterException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "worker", mixinStandardHelpOptions = true,
        description = {"Serve a coordinator (BGClient) (dissertation 4.3): 'bg load|run|rate --workers HOST:PORT,… --secret S'",
            "on another host drives this process. It listens only on the address given and obeys only a",
            "coordinator that presents the same secret."})
final class WorkerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--listen", paramLabel = "HOST:PORT", required = true,
            description = "Address to listen on, e.g. 10.0.0.5:7420 (port 0 picks a free one).")
    String listen;

    @Option(names = "--secret", paramLabel = "S", defaultValue = "${env:BG_SECRET}",
            description = "Shared secret the coordinator must present (default: $BG_SECRET).")
    String secret;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "bg-data/worker",
            description = "Where this worker keeps its own results and logs (default ${DEFAULT-VALUE}).")
    Path dir;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (secret == null || secret.isBlank()) {
            throw new InvalidParameterException("--secret", "a worker needs a shared secret (or $BG_SECRET)");
        }
        int colon = listen.lastIndexOf(':');
        if (colon <= 0) {
            throw new InvalidParameterException("--listen", "expected HOST:PORT, got '" + listen + "'");
        }
        int port;
        try {
            port = Integer.parseInt(listen.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new InvalidParameterException("--listen", "the port must be a number, got '" + listen + "'");
        }
        if (port < 0 || port > 65535) {
            throw new InvalidParameterException("--listen", "the port must be 0..65535, got " + port);
        }
        String host = listen.substring(0, colon).replaceAll("^\\[|]$", "");
        WorkerService service = new WorkerService(dir, err);
        try (WorkerServer server = WorkerServer.start(new InetSocketAddress(host, port), secret, service)) {
            err.printf("bg worker: listening on %s:%d (results in %s)%n", host, server.port(), dir.toAbsolutePath());
            err.flush();
            Runtime.getRuntime().addShutdownHook(new Thread(service::closeStore));
            service.onShutdown(() -> {
                try {
                    Thread.sleep(200); // let the answer to the shutdown call leave first
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                server.close();
            });
            server.awaitTermination();
            err.println("bg worker: shut down by the coordinator");
            err.flush();
        }
        return 0;
    }
}
