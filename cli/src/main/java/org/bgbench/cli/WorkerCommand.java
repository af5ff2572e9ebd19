package org.bgbench.cli;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.bgbench.cluster.rpc.WorkerServer;
import org.bgbench.cluster.security.Secrets;
import org.bgbench.cluster.security.SecurityOptionException;
import org.bgbench.cluster.security.TlsServer;
import org.bgbench.cluster.worker.WorkerService;
import org.bgbench.metrics.MetricsEndpoint;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.runner.Interrupts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "worker",
        mixinStandardHelpOptions = true,
        header = "Serve a coordinator on another host as one of its workers.",
        description = "Serve a coordinator (BGClient, dissertation 4.3): 'bg load|run|rate --workers HOST:PORT,… "
                + "--secret-file F' on another host drives this process. It listens only on the address given, "
                + "obeys only a coordinator that presents the same secret, and serves one coordinator at a time.")
final class WorkerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--listen",
            paramLabel = "HOST:PORT",
            required = true,
            description = "Address to listen on, e.g. 10.0.0.5:7420 (port 0 picks a free one).")
    String listen;

    // --- security options: resolved by org.bgbench.cluster.security -----------------------------------
    @Option(
            names = "--secret",
            paramLabel = "S",
            description =
                    "Shared secret on the command line: works, but other users see it in ps; prefer --secret-file.")
    String secret;

    @Option(
            names = "--secret-file",
            paramLabel = "FILE",
            description =
                    "File holding the shared secret (at least 16 characters; keep it chmod 600). If the file does "
                            + "not exist, a generated secret is written to it. Default: $BG_SECRET; with neither, a secret is "
                            + "generated and printed.")
    Path secretFile;

    @Option(
            names = "--tls",
            description = "Serve TLS: with --tls-cert/--tls-key, else a self-signed certificate made "
                    + "at start. Prints the certificate's SHA-256 fingerprint for the coordinator's --tls-pin.")
    boolean tls;

    @Option(
            names = "--tls-cert",
            paramLabel = "PEM",
            description =
                    "This worker's certificate (then intermediates); "
                            + "implies --tls. With --tls-key naming two files that do not exist, a self-signed pair is written there.")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "The certificate's private key, unencrypted PEM.")
    Path tlsKey;
    // --- end of security options -----------------------------------------------------------------------------------

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            defaultValue = "bg-data/worker",
            description = "Where this worker keeps its own results and logs, and the only place a coordinator's "
                    + "store settings may name files or directories in (default ${DEFAULT-VALUE}).")
    Path dir;

    @Option(
            names = WorkerService.ALLOW_CODE_OPTION,
            description = "Let the coordinator name code for the "
                    + "store to load or run (jdbc.driver-jar, jdbc.driver-maven, jdbc.maven-repo, jdbc.driver: any setting "
                    + "that loads code) and database URLs whose files BG cannot tell. Without it a worker refuses them; "
                    + "files and directories stay under --dir either way.")
    boolean allowCode;

    @picocli.CommandLine.Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
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
        InetSocketAddress address = new InetSocketAddress(host, port);
        metrics.address(); // bad --metrics is bad input before the worker listens
        Consumer<String> say = line -> {
            err.println("bg worker: " + line);
            err.flush();
        };
        String sharedSecret;
        TlsServer identity = null;
        try {
            sharedSecret = Secrets.resolve(Secrets.Side.WORKER, secret, secretFile, System::getenv, say)
                    .secret();
            if (tls || tlsCert != null || tlsKey != null) {
                identity = TlsServer.resolve(tlsCert, tlsKey, TlsServer.defaultNames(address.getAddress()), say);
                say.accept("TLS certificate SHA-256 fingerprint " + identity.fingerprint()
                        + (identity.generated() && tlsCert == null ? " (self-signed for this run)" : "")
                        + ": coordinators pin it with"
                        + " --tls-pin " + identity.fingerprint());
            }
        } catch (SecurityOptionException e) {
            throw new InvalidParameterException(e.option(), e.getMessage());
        }
        WorkerService service = new WorkerService(dir, err, allowCode);
        try (WorkerServer server = WorkerServer.builder(address, service)
                        .secret(sharedSecret)
                        .tls(identity)
                        .messages(say)
                        .start();
                // Its metrics are labelled with the address coordinators name it by in --workers.
                MetricsEndpoint endpoint = metrics.start(host + ":" + server.port(), err)) {
            err.printf(
                    "bg worker: listening on %s:%d%s (results in %s)%n",
                    host, server.port(), identity == null ? "" : " with TLS", dir.toAbsolutePath());
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
            // Ctrl-C or SIGTERM: the running experiment (if any) ends and answers its coordinator, then the worker
            // stops serving.
            try (Interrupts.Registration r = Interrupts.onInterrupt(why -> {
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        Thread.sleep(1000); // the stopped run's answer leaves first
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    server.close();
                });
            })) {
                server.awaitTermination();
            }
            err.println(
                    Interrupts.interrupted()
                            ? "bg worker: " + Interrupts.reason()
                            : "bg worker: shut down by the coordinator");
            err.flush();
        }
        return 0;
    }
}
