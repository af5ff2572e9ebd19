package org.bgbench.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A worker in a child JVM, so it can be frozen (SIGSTOP) or killed. */
final class ChildWorker implements AutoCloseable {
    final Process process;
    final int port;
    private final BufferedReader out;

    ChildWorker(String secret) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        process = new ProcessBuilder(
                        java,
                        "-Xmx128m",
                        "-XX:TieredStopAtLevel=1",
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        TickingWorkerMain.class.getName(),
                        secret)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        String first;
        try {
            first = line.get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
            throw e;
        }
        if (first == null || !first.startsWith("PORT ")) {
            process.destroyForcibly();
            throw new IllegalStateException("child worker did not start: " + first);
        }
        port = Integer.parseInt(first.substring(5).strip());
    }

    /** Waits until the child prints {@code expected} on a line of its own; false if it did not within {@code seconds}. */
    boolean awaitLine(String expected, long seconds) throws InterruptedException, ExecutionException {
        CompletableFuture<Boolean> seen = CompletableFuture.supplyAsync(() -> {
            try {
                for (String l = out.readLine(); l != null; l = out.readLine()) {
                    if (l.equals(expected)) {
                        return true;
                    }
                }
                return false;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            return seen.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return false;
        }
    }

    void signal(String signal) throws Exception {
        int rc = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .inheritIO()
                .start()
                .waitFor();
        assertThat(rc).as("kill -" + signal).isZero();
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
