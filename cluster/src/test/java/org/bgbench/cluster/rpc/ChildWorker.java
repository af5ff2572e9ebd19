package org.bgbench.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A worker in a child JVM, so it can be frozen (SIGSTOP) or killed. */
final class ChildWorker implements AutoCloseable {
    final Process process;
    final int port;

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
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
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
