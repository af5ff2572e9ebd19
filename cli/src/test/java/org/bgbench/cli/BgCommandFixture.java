package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the end-to-end tests of the bg command share: a temporary directory with BG's state in it, a SQLite file
 * there, the command run in process with its output captured, a small graph, and a worker started in a thread.
 */
abstract class BgCommandFixture {
    @TempDir
    Path dir;

    String db;
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        db = "sqlite.file=" + dir.resolve("bg.sqlite");
    }

    int bg(String... args) {
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    static final String[] GRAPH = {
        "-p",
        "usercount=300",
        "-p",
        "friendcountperuser=10",
        "-p",
        "resourcecountperuser=4",
        "-p",
        "confperc=0.7",
        "-p",
        "commentcountperresource=1"
    };

    String[] with(String[] base, String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(List.of(base));
        return all.toArray(String[]::new);
    }

    /** Starts 'bg worker' on a free loopback port in a thread; returns its port once it listens. */
    int startWorker(StringWriter workerErr, AtomicInteger code, Thread[] thread, String... options) throws Exception {
        return startWorker(dir, workerErr, code, thread, options);
    }

    /**
     * Starts {@code bg worker} on a free loopback port in a thread of this JVM, its directory under {@code dir}, and
     * waits until it listens; its exit code goes to {@code code}.
     */
    static int startWorker(Path dir, StringWriter workerErr, AtomicInteger code, Thread[] thread, String... options)
            throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        List<String> args = new ArrayList<>(List.of(
                "worker",
                "--listen",
                "127.0.0.1:" + port,
                "--dir",
                dir.resolve("worker-" + port).toString()));
        args.addAll(List.of(options));
        thread[0] = Thread.ofPlatform()
                .start(() -> code.set(Bg.run(
                        new PrintWriter(new StringWriter(), true),
                        new PrintWriter(workerErr, true),
                        args.toArray(String[]::new))));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!workerErr.toString().contains("(results in") && System.nanoTime() < deadline && thread[0].isAlive()) {
            Thread.sleep(10);
        }
        assertThat(workerErr.toString()).contains("listening on 127.0.0.1:" + port);
        return port;
    }
}
