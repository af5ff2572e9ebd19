package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;
import org.bgbench.deck.Deck;
import org.bgbench.deck.jobs.JobInputs;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.runner.Interrupts;
import org.bgbench.store.StoreRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "deck",
        mixinStandardHelpOptions = true,
        header = "Serve BG's deck: load, run, rate and watch in a browser.",
        description = "BG's visualization deck: set up, load, run and rate from a browser, watch runs live (also "
                + "those started from a terminal), browse and compare results (docs/deck.md).")
final class DeckCommand implements Callable<Integer> {
    private static final Pattern HOST_NAME = Pattern.compile(
            "[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?" + "(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*");

    @Spec
    CommandSpec spec;

    @Option(
            names = "--listen",
            paramLabel = "HOST:PORT",
            defaultValue = "127.0.0.1:7878",
            description = "Address to serve on (default ${DEFAULT-VALUE}; port 0: any free one).")
    String listen;

    @Option(
            names = "--token",
            paramLabel = "T",
            description = "Required on every request (the printed address "
                    + "carries it), at least 16 characters; default: a random one, printed once.")
    String token;

    @Option(
            names = "--allow-host",
            paramLabel = "NAME[,NAME…]",
            hideParamSyntax = true,
            split = ",",
            description = "Also accept requests naming "
                    + "this host (e.g. the machine's DNS name); by default only the addresses the deck listens on.")
    List<String> allowHosts = new ArrayList<>();

    @Option(
            names = JobInputs.ALLOW_OPTION,
            description = "Let jobs started from the page load code or files from "
                    + "elsewhere: driver jars, Maven drivers and repositories, dialect files, paths outside --runs.")
    boolean allowExternal;

    @Option(
            names = "--runs",
            paramLabel = "DIR",
            defaultValue = "runs",
            description =
                    "The results directory the deck browses and its commands write to (default ${DEFAULT-VALUE}).")
    Path runs;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        InetSocketAddress address = hostPort(listen);
        if (token != null && token.isBlank()) {
            throw new InvalidParameterException("--token", "must not be empty");
        }
        for (String h : allowHosts) {
            if (!HOST_NAME.matcher(h).matches()) {
                throw new InvalidParameterException(
                        "--allow-host",
                        "expected a host name such as bench.example.org"
                                + " (letters, digits, '-' and '.', no port or scheme); got '" + h + "'");
            }
        }
        if (Files.exists(runs) && !Files.isDirectory(runs)) {
            throw new InvalidParameterException("--runs", "not a directory: " + runs);
        }
        Deck.Config config;
        try {
            config = new Deck.Config(address, token, runs, Path.of("").toAbsolutePath(), BgProcess.bgCommand());
        } catch (IllegalArgumentException e) {
            throw new InvalidParameterException("--token", e.getMessage().replaceFirst("^--token: ", ""));
        }
        Deck deck;
        try {
            deck = Deck.start(config, new Deck.Allow(allowHosts, allowExternal), StoreRegistry.discover());
        } catch (IOException e) {
            throw new InvalidParameterException("--listen", "cannot listen on " + listen + ": " + e.getMessage());
        }
        CountDownLatch stop = new CountDownLatch(1);
        try (deck;
                Interrupts.Registration r = Interrupts.onInterrupt(why -> stop.countDown())) {
            err.println("bg deck: open " + deck.uri() + " (results in " + runs.toAbsolutePath() + "; Ctrl-C stops "
                    + "the deck, not the runs it started)");
            err.flush();
            stop.await();
        }
        return 0;
    }

    private static InetSocketAddress hostPort(String text) {
        int colon = text.lastIndexOf(':');
        String host = colon < 0 ? "" : text.substring(0, colon).replaceAll("^\\[|]$", "");
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (colon <= 0 || host.isBlank() || port < 0 || port > 65535) {
            throw new InvalidParameterException(
                    "--listen",
                    "expected HOST:PORT with a port 0..65535 (0: any free " + "one), e.g. 127.0.0.1:7878; got '" + text
                            + "'");
        }
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw new InvalidParameterException("--listen", "unknown host '" + host + "'");
        }
        return a;
    }
}
