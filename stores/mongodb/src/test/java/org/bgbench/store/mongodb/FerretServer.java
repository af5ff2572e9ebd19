package org.bgbench.store.mongodb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.bgbench.store.conformance.servers.ServerScripts;
import org.bgbench.store.conformance.servers.SharedServer;

/**
 * Private FerretDB v1.24.2 servers (the MongoDB wire protocol over PostgreSQL or SQLite) for tests, started by
 * {@code scripts/ferretdb.sh start DIR --backend postgresql|sqlite} in a directory under /tmp (own free ports on
 * 127.0.0.1) and killed, their directory deleted, on close.
 *
 * <p>{@link #shared(Backend)} is one server per backend per JVM, shared by every test class of that JVM and stopped by
 * a shutdown hook; {@link #start(Backend)} is a new server the caller closes. The launcher (scripts/ferretdb/main.go)
 * is built with Go 1.24+ through the Go module proxy into a per-user cache ({@code ~/.cache/bg/ferretdb-1.24.2},
 * unless the environment sets FERRETDB_BIN), so test JVMs and CI runs build it once.
 *
 * <p>When neither Go 1.24+ nor a built launcher is found, or (backend POSTGRESQL) PostgreSQL's server binaries are
 * missing, the calling tests fail when the environment variable CI is set (and not false or 0), and are skipped
 * otherwise (the rule of CassandraServer, MariadbServer and CacheServer).
 */
public final class FerretServer implements AutoCloseable {
    public static final String VERSION = "1.24.2";

    public enum Backend {
        POSTGRESQL,
        SQLITE;

        String arg() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Map<Backend, SharedServer<FerretServer>> SHARED = new EnumMap<>(Backend.class);

    private final Backend backend;
    private final Path dir;
    private final String uri;
    private final String postgresUrl;
    private final List<Long> pids;
    private final boolean shared;

    private FerretServer(Backend backend, Path dir, String uri, String postgresUrl, List<Long> pids, boolean shared) {
        this.backend = backend;
        this.dir = dir;
        this.uri = uri;
        this.postgresUrl = postgresUrl;
        this.pids = pids;
        this.shared = shared;
    }

    /**
     * The server of {@code backend} of this JVM, started on the first call; later calls return the same instance. Its
     * {@link #close()} does nothing: a shutdown hook kills it and deletes its directory when the JVM exits. A failed
     * start is remembered, so later calls fail at once instead of waiting again.
     */
    public static synchronized FerretServer shared(Backend backend) {
        return SHARED.computeIfAbsent(
                        backend,
                        b -> new SharedServer<>(
                                b.arg() + " FerretDB server",
                                () -> requirePrerequisites(b),
                                () -> launch(b, true),
                                FerretServer::destroy))
                .get();
    }

    /** A new server of {@code backend}; the caller closes it. */
    public static FerretServer start(Backend backend) {
        requirePrerequisites(backend);
        return launch(backend, false);
    }

    // --- prerequisites rule -----------------------------------------------------------------------------------------

    private static void requirePrerequisites(Backend backend) {
        boolean ci = ServerScripts.ciRequired();
        ServerScripts.requireOrSkip(
                launcherAvailable(),
                ci,
                "FerretDB " + VERSION + " needs Go 1.24 or newer to build"
                        + " its launcher (scripts/ferretdb/main.go) and none is found (no go in PATH or /usr/local/go/bin of"
                        + " version 1.24+, no built launcher in " + binaryCache()
                        + ", FERRETDB_BIN not set); install Go"
                        + " 1.24+ from https://go.dev/dl into /usr/local/go (Debian's golang-go is too old), or set FERRETDB_BIN"
                        + " to a built launcher");
        if (backend == Backend.POSTGRESQL) {
            ServerScripts.requireOrSkip(
                    postgresFound(),
                    ci,
                    "FerretDB over PostgreSQL needs PostgreSQL's server"
                            + " binaries (initdb, pg_ctl, postgres, psql) in PG_BIN or /usr/lib/postgresql/*/bin and none are"
                            + " found (Debian package postgresql; ./test installs it when run as root, otherwise: sudo apt-get"
                            + " install --no-install-recommends postgresql)");
        }
    }

    /** FERRETDB_BIN, a launcher built earlier in the per-user cache, or a Go 1.24+ to build one. */
    static boolean launcherAvailable() {
        String bin = System.getenv("FERRETDB_BIN");
        if (bin != null && !bin.isBlank()) {
            return Files.isExecutable(Path.of(bin));
        }
        return Files.isExecutable(binaryCache().resolve("ferretdb-bg")) || goFound();
    }

    /** The per-user cache of the launcher (FERRETDB_CACHE, else ~/.cache/bg/ferretdb-1.24.2), as the script uses. */
    static Path binaryCache() {
        String c = System.getenv("FERRETDB_CACHE");
        if (c != null && !c.isBlank()) {
            return Path.of(c);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "bg", "ferretdb-" + VERSION);
    }

    /** A go of version 1.24 or newer in PATH or /usr/local/go/bin, as scripts/ferretdb.sh looks for one. */
    static boolean goFound() {
        List<Path> candidates = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(":")) {
                if (!d.isEmpty()) {
                    candidates.add(Path.of(d, "go"));
                }
            }
        }
        candidates.add(Path.of("/usr/local/go/bin/go"));
        for (Path go : candidates) {
            if (Files.isExecutable(go) && goVersionAtLeast124(go)) {
                return true;
            }
        }
        return false;
    }

    private static boolean goVersionAtLeast124(Path go) {
        try {
            ProcessBuilder pb = new ProcessBuilder(go.toString(), "env", "GOVERSION").redirectErrorStream(true);
            pb.environment().put("GOTOOLCHAIN", "local");
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0
                    && goVersionOk(new String(p.getInputStream().readAllBytes()).trim());
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** "go1.24", "go1.26.8", "go2.0" are; "go1.19.8", "devel ..." and "" are not. */
    static boolean goVersionOk(String goversion) {
        Matcher m = Pattern.compile("^go(\\d+)\\.(\\d+)").matcher(goversion);
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        return major > 1 || (major == 1 && minor >= 24);
    }

    /** initdb, pg_ctl, postgres and psql in PG_BIN or in one of /usr/lib/postgresql/*&#47;bin. */
    static boolean postgresFound() {
        String pgBin = System.getenv("PG_BIN");
        if (pgBin != null && !pgBin.isBlank()) {
            return postgresBinaries(Path.of(pgBin));
        }
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.anyMatch(v -> postgresBinaries(v.resolve("bin")));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean postgresBinaries(Path bin) {
        return Stream.of("initdb", "pg_ctl", "postgres", "psql").allMatch(t -> Files.isExecutable(bin.resolve(t)));
    }

    // --- start ------------------------------------------------------------------------------------------------------

    private static FerretServer launch(Backend backend, boolean shared) {
        Path script = ServerScripts.script("ferretdb.sh");
        Path dir = null;
        try {
            dir = Files.createTempDirectory(Path.of("/tmp"), "bg-ferret-");
            // A cold build of the launcher takes 1-4 minutes; the servers start in about a second.
            String out = run(script, 600, "start", dir.toString(), "--backend", backend.arg());
            String[] lines = out.trim().split("\n");
            String uri = lines[lines.length - 1].trim();
            if (!uri.startsWith("mongodb://127.0.0.1:")) {
                throw new IllegalStateException("scripts/ferretdb.sh start printed no connection string: " + out);
            }
            String pgUrl = backend == Backend.POSTGRESQL
                    ? run(script, 30, "pg-url", dir.toString()).trim()
                    : null;
            return new FerretServer(backend, dir, uri, pgUrl, readPids(backend, dir), shared);
        } catch (IOException | RuntimeException e) {
            if (dir != null) {
                new FerretServer(backend, dir, null, null, readPids(backend, dir), shared).destroy();
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("cannot start FerretDB: " + e.getMessage(), e);
        }
    }

    /** FerretDB's pid (DIR/ferretdb.pid), then the postmaster's (first line of DIR/pg/data/postmaster.pid). */
    private static List<Long> readPids(Backend backend, Path dir) {
        List<Long> p = new ArrayList<>();
        readPid(dir.resolve("ferretdb.pid")).ifPresent(p::add);
        if (backend == Backend.POSTGRESQL) {
            readPid(dir.resolve("pg/data/postmaster.pid")).ifPresent(p::add);
        }
        return List.copyOf(p);
    }

    private static Optional<Long> readPid(Path file) {
        try {
            return Optional.of(Long.parseLong(Files.readAllLines(file).get(0).trim()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Runs scripts/ferretdb.sh ARGS; its output (stdout and stderr), or an exception naming the command. */
    private static String run(Path script, long timeoutSeconds, String... args) {
        // Test servers need no durability across a crash of the machine: PostgreSQL without fsync keeps the module's
        // conformance suites (each test loads a fresh graph) a few minutes shorter.
        Map<String, String> env = System.getenv("PG_FSYNC") == null ? Map.of("PG_FSYNC", "off") : Map.of();
        return ServerScripts.runOrThrow(script, timeoutSeconds, env, args);
    }

    // --- accessors --------------------------------------------------------------------------------------------------

    /** The connection string, mongodb://127.0.0.1:PORT/. */
    public String uri() {
        return uri;
    }

    /**
     * The JDBC URL of the private PostgreSQL's database bg (jdbc:postgresql://127.0.0.1:PORT/bg?user=postgres, trust
     * authentication), for BG's postgres store side by side; null for {@link Backend#SQLITE}.
     */
    public String postgresUrl() {
        return postgresUrl;
    }

    public Path dir() {
        return dir;
    }

    /** The pids recorded at start: FerretDB's, then (backend POSTGRESQL) the postmaster's. */
    public List<Long> pids() {
        return pids;
    }

    public Backend backend() {
        return backend;
    }

    /** Kills the processes and deletes the directory; does nothing for {@link #shared} ones (a shutdown hook does). */
    @Override
    public void close() {
        if (!shared) {
            destroy();
        }
    }

    /**
     * SIGKILL FerretDB (its data is deleted right after, so a clean shutdown would only cost time), then SIGTERM the
     * postmaster (smart shutdown: its only client, FerretDB, is gone; it stops its backends itself), SIGKILL it and
     * its children after 10 s; delete the directory.
     */
    private void destroy() {
        // Only processes started for this directory (guards against reused pids): FerretDB's command line names its
        // port, which only this directory's ferretdb.port holds; the postmaster's names DIR/pg/data.
        String port = readString(dir.resolve("ferretdb.port"));
        readPid(dir.resolve("ferretdb.pid"))
                .flatMap(ProcessHandle::of)
                .filter(h -> running(h, "127.0.0.1:" + port))
                .ifPresent(h -> {
                    h.destroyForcibly();
                    await(h, 10);
                });
        readPid(dir.resolve("pg/data/postmaster.pid"))
                .flatMap(ProcessHandle::of)
                .filter(h -> running(h, dir.resolve("pg/data").toString()))
                .ifPresent(h -> {
                    List<ProcessHandle> children = h.children().toList();
                    h.destroy();
                    if (!await(h, 10)) {
                        children.forEach(ProcessHandle::destroyForcibly);
                        h.destroyForcibly();
                        await(h, 10);
                    }
                });
        ServerScripts.deleteTree(dir);
    }

    private static boolean running(ProcessHandle h, String inCommandLine) {
        return h.isAlive()
                && h.info().commandLine().map(c -> c.contains(inCommandLine)).orElse(true);
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    private static boolean await(ProcessHandle h, int seconds) {
        try {
            h.onExit().get(seconds, TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            return !h.isAlive();
        }
    }

    @Override
    public String toString() {
        return "FerretDB " + VERSION + " over " + backend.arg() + " at " + uri + " (" + dir + ")";
    }
}
