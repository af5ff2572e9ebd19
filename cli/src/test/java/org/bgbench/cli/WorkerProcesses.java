package org.bgbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code bg worker} processes of a test, each in its own directory, shut down and reaped when it ends. */
final class WorkerProcesses implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

    private final Path dir;
    private final String secret;
    private final List<Process> processes = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();

    WorkerProcesses(Path dir, String secret) {
        this.dir = dir;
        this.secret = secret;
    }

    /** Starts worker {@code n} on a port of its choosing; returns its address once it listens. */
    String start(int n) throws Exception {
        Path log = dir.resolve("worker-" + n + ".log");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Bg.class.getName(),
                        "worker",
                        "--listen",
                        "127.0.0.1:0",
                        "--dir",
                        dir.resolve("worker-" + n).toString(),
                        "--secret",
                        secret)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        processes.add(p);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && p.isAlive()) {
            Matcher m = LISTENING.matcher(read(log));
            if (m.find() && read(log).contains("(results in")) {
                String address = "127.0.0.1:" + m.group(1);
                addresses.add(address);
                return address;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the worker did not start listening: " + read(log));
    }

    /** Asks every worker started to shut down, then waits for each (killing one that does not end). */
    @Override
    public void close() throws Exception {
        if (!addresses.isEmpty()) {
            Bg.run(
                    new java.io.PrintWriter(java.io.Writer.nullWriter()),
                    new java.io.PrintWriter(java.io.Writer.nullWriter()),
                    "shutdown",
                    "--workers",
                    String.join(",", addresses),
                    "--secret",
                    secret);
        }
        for (Process p : processes) {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
