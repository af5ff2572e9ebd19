package org.bgbench.store.casql;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.bgbench.store.DeathWatch;
import org.bgbench.store.conformance.servers.ServerScripts;

/**
 * A real redis-server or memcached, started as a child process on a free loopback port for a test and stopped (and
 * its temporary directory deleted) on close. A {@link DeathWatch} kills it and deletes the directory when the test JVM
 * dies without closing it (SIGKILL, a crash, a surefire fork killed on timeout), as the other private test servers'
 * scripts do. When the binary is not installed the calling tests fail when the
 * environment variable CI is set, and are skipped otherwise, with a message saying what to install.
 */
final class CacheServer implements AutoCloseable {
    enum Kind {
        REDIS("redis-server", "redis"),
        MEMCACHED("memcached", "memcached");

        final String binary;
        final String setting;

        Kind(String binary, String setting) {
            this.binary = binary;
            this.setting = setting;
        }
    }

    /** Kills server $1 (SIGTERM, then SIGKILL after 5 s) and deletes its directory $2. */
    private static final String STOP = """
            kill -TERM "$1" 2>/dev/null
            i=0
            while kill -0 "$1" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
            kill -KILL "$1" 2>/dev/null
            rm -rf "$2"
            """;

    private final Process process;
    private final int port;
    private final Path dir;
    private final Kind kind;
    private final DeathWatch watch;

    private CacheServer(Kind kind, Process process, int port, Path dir, DeathWatch watch) {
        this.kind = kind;
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.watch = watch;
    }

    /** Where the binary is, searching PATH and the usual bin and sbin directories. */
    static Optional<Path> binary(Kind kind) {
        List<String> dirs =
                new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/local/bin", "/usr/bin", "/usr/sbin", "/usr/local/sbin"));
        for (String d : dirs) {
            if (d.isEmpty()) {
                continue;
            }
            Path p = Path.of(d, kind.binary);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The binary; when it is missing, fails the calling test if {@code required}, otherwise skips it. */
    static Path require(Kind kind, Optional<Path> bin, boolean required) {
        ServerScripts.requireOrSkip(
                bin.isPresent(),
                required,
                kind.binary + " is not installed (./test installs it"
                        + " when run as root; otherwise sudo apt-get install redis-server memcached)");
        return bin.get();
    }

    /** Starts a server; when its binary is missing, fails the calling test under CI and skips it otherwise. */
    static CacheServer start(Kind kind) {
        Path bin = require(kind, binary(kind), ServerScripts.ciRequired());
        Path dir = null;
        try {
            dir = Files.createTempDirectory("bg-casql-" + kind.setting + "-");
            for (int attempt = 1; ; attempt++) {
                int port = freePort();
                List<String> cmd = new ArrayList<>();
                cmd.add(bin.toString());
                if (kind == Kind.REDIS) {
                    cmd.addAll(List.of(
                            "--port",
                            Integer.toString(port),
                            "--bind",
                            "127.0.0.1",
                            "--save",
                            "",
                            "--appendonly",
                            "no",
                            "--daemonize",
                            "no",
                            "--dir",
                            dir.toString(),
                            "--loglevel",
                            "warning"));
                } else {
                    cmd.addAll(List.of("-p", Integer.toString(port), "-U", "0", "-l", "127.0.0.1", "-m", "64"));
                    if ("root".equals(System.getProperty("user.name"))) {
                        // memcached refuses to run as root unless told which user to be.
                        cmd.addAll(List.of("-u", "root"));
                    }
                }
                Path log = dir.resolve("server-" + attempt + ".log");
                Process p = new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
                DeathWatch watch = DeathWatch.start(STOP, Long.toString(p.pid()), dir.toString());
                if (awaitPort(p, port)) {
                    return new CacheServer(kind, p, port, dir, watch);
                }
                watch.release();
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                if (attempt == 3) {
                    throw new IllegalStateException(
                            kind.binary + " did not start on port " + port + ": " + Files.readString(log));
                }
            }
        } catch (IOException e) {
            ServerScripts.deleteTree(dir);
            throw new IllegalStateException("cannot start " + kind.binary + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ServerScripts.deleteTree(dir);
            throw new IllegalStateException("interrupted while starting " + kind.binary, e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static boolean awaitPort(Process p, int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                return false;
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return true;
            } catch (IOException notYet) {
                Thread.sleep(20);
            }
        }
        return false;
    }

    Kind kind() {
        return kind;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** The casql settings that point at this server. */
    Map<String, String> settings() {
        Map<String, String> s = new HashMap<>();
        s.put("cache", kind.setting);
        s.put("cache.host", "127.0.0.1");
        s.put("cache.port", Integer.toString(port));
        return s;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        } finally {
            ServerScripts.deleteTree(dir);
            watch.release();
        }
    }

    /**
     * Starts a server, prints its pid and directory on one line and waits until killed: the child JVM of
     * CacheServerTest's orphan test.
     */
    public static void main(String[] args) throws InterruptedException {
        CacheServer s = start(Kind.valueOf(args[0]));
        System.out.println(s.pid() + " " + s.dir);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
