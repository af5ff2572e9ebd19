package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.bgbench.store.SchedulingPolicy;
import org.bgbench.study.ServerKind;
import org.bgbench.study.Study;

/**
 * A server BG started for a study's store group through its script: {@code start DIR ARGS} under the group's data
 * directory, the store's {@code -p} keys from {@code settings DIR}, its pids from the script (kept in
 * {@code server.pids} beside it) and, on {@link #close}, {@code stop DIR} and then SIGKILL to any pid still alive. Every
 * running server is also stopped by a JVM shutdown hook and, by pid, by {@link #killAll} before BG halts at a second
 * Ctrl-C, so a stopped study leaves no server behind.
 */
final class StudyServer implements AutoCloseable {
    private static final Set<StudyServer> RUNNING = ConcurrentHashMap.newKeySet();
    private static final long START_SECONDS = 900;
    private static final long STOP_SECONDS = 300;

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> List.copyOf(RUNNING).forEach(StudyServer::close)));
    }

    private final Study.Server server;
    private final Path script;
    private final Path dir;
    private final Path link;
    private final Path log;
    private final List<Long> pids;
    private final Map<String, String> settings;

    private StudyServer(
            Study.Server server,
            Path script,
            Path dir,
            Path link,
            Path log,
            List<Long> pids,
            Map<String, String> settings) {
        this.server = server;
        this.script = script;
        this.dir = dir;
        this.link = link;
        this.log = log;
        this.pids = pids;
        this.settings = settings;
    }

    /**
     * Starts {@code server} in {@code groupDir}/server (the script's output appended to {@code groupDir}/server.log)
     * and reads its store keys; a start that fails stops whatever it started and throws, saying why in one line.
     */
    static StudyServer start(Study.Server server, Path groupDir, PrintWriter err) throws IOException {
        Path script = BgHome.script(server.kind().script());
        Path dir = groupDir.resolve("server").toAbsolutePath();
        Files.createDirectories(dir);
        Path log = groupDir.resolve("server.log").toAbsolutePath();
        // The scripts put sockets in DIR, whose path must fit in 108 bytes: a long one is reached through a link.
        Path link = null;
        Path used = dir;
        if (runsAsPostgres(server)) {
            // As root the script runs PostgreSQL as the user postgres, who cannot enter root's directories: its
            // servers live in a temporary directory instead, deleted when the group ends.
            used = Files.createTempDirectory(Path.of("/tmp"), "bg-srv-");
            link = used;
            Files.writeString(groupDir.resolve("server.dir"), used + "\n");
        } else if (dir.toString().length() > 60) {
            link = Path.of(
                    System.getProperty("java.io.tmpdir"),
                    "bg-srv-" + UUID.randomUUID().toString().substring(0, 8));
            Files.createSymbolicLink(link, dir);
            used = link;
        }
        err.println("bg: study: starting " + server.words() + " in " + dir + " (its log: " + log + ")");
        err.flush();
        StudyServer s = new StudyServer(server, script, used, link, log, new ArrayList<>(), new LinkedHashMap<>());
        RUNNING.add(s);
        try {
            List<String> args = new ArrayList<>(List.of("start", used.toString()));
            args.addAll(server.args());
            s.run(START_SECONDS, args);
            s.pids.addAll(s.output(server.kind().pidCommand())
                    .lines()
                    .map(String::strip)
                    .filter(l -> l.matches("[0-9]+"))
                    .map(Long::parseLong)
                    .toList());
            Files.writeString(
                    groupDir.resolve("server.pids"),
                    String.join("\n", s.pids.stream().map(String::valueOf).toList()) + "\n");
            for (String line : s.output("settings").lines().toList()) {
                int eq = line.indexOf('=');
                if (eq > 0 && !line.startsWith(" ")) {
                    s.settings.put(line.substring(0, eq), line.substring(eq + 1).strip());
                }
            }
            if (s.settings.isEmpty()) {
                throw new IOException("scripts/" + server.kind().script() + " settings printed no keys");
            }
            err.println("bg: study: " + server.kind().key() + " runs (pid " + s.pids + "): " + s.settings);
            err.flush();
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Whether every process of the server still runs. */
    boolean alive() {
        return pids.stream()
                .allMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false));
    }

    /** The server in words and where its log is, for a point that failed because it is gone. */
    String gone() {
        return "the server " + server.words() + " no longer runs (its log: " + log + ")";
    }

    /** The store's {@code -p} keys the script printed. */
    Map<String, String> settings() {
        return settings;
    }

    /** Stops the server (the script's stop, then SIGKILL by pid to whatever still runs); safe to call twice. */
    @Override
    public void close() {
        if (!RUNNING.remove(this)) {
            return;
        }
        try {
            run(STOP_SECONDS, List.of("stop", dir.toString()));
        } catch (IOException | RuntimeException e) {
            // The pids below are killed whatever the script did.
        }
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(h -> {
                h.destroyForcibly();
                try {
                    h.onExit().get(20, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // still there after SIGKILL (uninterruptible sleep): nothing more to do
                }
            });
        }
        if (link != null) {
            deleteTree(link);
        }
    }

    /** Whether the script runs the server as the user postgres: BG runs as root and the server is PostgreSQL. */
    private static boolean runsAsPostgres(Study.Server server) {
        boolean postgres = server.kind() == ServerKind.POSTGRES_REPLICA
                || (server.kind() == ServerKind.FERRETDB
                        && "postgresql".equals(server.options().getOrDefault("backend", "postgresql")));
        return postgres && "root".equals(System.getProperty("user.name"));
    }

    /** Deletes a link, or a temporary server directory and everything in it, as far as it can. */
    private static void deleteTree(Path p) {
        if (Files.isSymbolicLink(p)) {
            p.toFile().delete();
            return;
        }
        try (java.util.stream.Stream<Path> files = Files.walk(p)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a leftover in the temporary directory is harmless
        }
    }

    /** SIGTERM to every running server's processes, at once, for a BG about to halt. */
    static void killAll() {
        for (StudyServer s : RUNNING) {
            s.pids.forEach(p -> ProcessHandle.of(p).ifPresent(ProcessHandle::destroy));
        }
    }

    private String output(String command) throws IOException {
        return run(60, List.of(command, dir.toString()));
    }

    /** Runs {@code bash SCRIPT ARGS}, its output appended to the log; its standard output, or an IOException. */
    private String run(long seconds, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(args);
        Path out = Files.createTempFile("bg-server-", ".out");
        try {
            // The server does not inherit BG's batch policy (the bg launcher's BG_SCHED=batch).
            ProcessBuilder pb = new ProcessBuilder(SchedulingPolicy.forStoreServer(cmd))
                    .redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().putAll(environment(server.kind()));
            Process p = pb.start();
            boolean ended;
            try {
                ended = p.waitFor(seconds, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ended = false;
            }
            String text = Files.readString(out);
            Files.writeString(log, text, java.nio.file.StandardOpenOption.APPEND);
            String what = "scripts/" + server.kind().script() + " " + args.getFirst();
            if (!ended) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IOException(what + " did not finish within " + seconds + " s; see " + log);
            }
            if (p.exitValue() != 0) {
                throw new IOException(what + " failed (exit " + p.exitValue() + "): " + lastLine(log) + "; see " + log);
            }
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The server jars from the per-user caches the tests share, unless the user chose a directory. */
    private static Map<String, String> environment(ServerKind kind) {
        Map<String, String> env = new LinkedHashMap<>();
        String home = System.getProperty("user.home");
        if (kind == ServerKind.CASSANDRA && System.getenv("CASSANDRA_LIB") == null) {
            env.put("CASSANDRA_LIB", home + "/.cache/bg/cassandra-5.0.9/lib");
        }
        if (kind == ServerKind.HBASE && System.getenv("HBASE_LIB") == null) {
            env.put("HBASE_LIB", home + "/.cache/bg/hbase-2.6.4-hadoop3/lib");
        }
        return env;
    }

    private static String lastLine(Path log) {
        try {
            List<String> lines =
                    Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "" : lines.getLast().strip();
        } catch (IOException e) {
            return "";
        }
    }
}
