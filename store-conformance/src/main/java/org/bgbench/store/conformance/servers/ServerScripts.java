package org.bgbench.store.conformance.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bgbench.store.SchedulingPolicy;
import org.junit.jupiter.api.Assumptions;

/**
 * What the store modules' private-server test helpers (CacheServer, CassandraServer, HBaseServer, MariadbServer,
 * FerretServer) share: the rule for a missing server or prerequisite (fail under CI, skip otherwise), finding and
 * running a {@code scripts/NAME.sh} with a timeout, the JDK 17/11 lookup of the servers that need an older JDK, and
 * deleting a server's temporary directory. Each helper keeps its own messages and settings.
 */
public final class ServerScripts {
    private ServerScripts() {}

    // --- the missing-server rule -------------------------------------------------------------------------------------

    /** Whether an environment variable's value counts as set: not null, blank, false (any case) or 0. */
    public static boolean ciSet(String value) {
        return value != null
                && !value.isBlank()
                && !value.trim().equalsIgnoreCase("false")
                && !value.trim().equals("0");
    }

    /**
     * Whether a missing server fails its tests instead of skipping them: when the environment variable CI is set (not
     * to false or 0), as CI services and .ci/run set it, so CI cannot pass without having run them. Not always: a
     * developer running one module's tests with Maven on a machine without the servers still gets the others, and
     * ./test itself installs the servers first or stops saying how to (scripts/test-deps.sh), so outside CI a skip
     * only follows a deliberate BG_SKIP_MISSING_SERVERS=1 or a direct mvn run.
     */
    public static boolean ciRequired() {
        return ciSet(System.getenv("CI"));
    }

    /** {@link #requireOrSkip(boolean, boolean, String)} with {@code required} from {@link #ciRequired()}. */
    public static void requireOrSkip(boolean found, String missing) {
        requireOrSkip(found, ciRequired(), missing);
    }

    /**
     * Nothing when {@code found}; otherwise fails the calling test when {@code required} (CI is set) and skips it
     * when not. {@code missing} names what is missing and says how to get it.
     */
    public static void requireOrSkip(boolean found, boolean required, String missing) {
        if (found) {
            return;
        }
        if (required) {
            throw new AssertionError(missing + "; CI is set, so the tests that need it fail instead of being skipped");
        }
        Assumptions.abort(missing + ": skipping the tests that need it");
    }

    // --- scripts -----------------------------------------------------------------------------------------------------

    /** {@code scripts/NAME} in the working directory or the nearest directory above it that has one. */
    public static Path script(String name) {
        String userDir = System.getProperty("user.dir");
        for (Path d = Path.of(userDir).toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("scripts").resolve(name);
            if (Files.isRegularFile(s)) {
                return s;
            }
        }
        throw new IllegalStateException("scripts/" + name + " not found above " + userDir);
    }

    /** The exit status and output (stdout and stderr together) of one script command. */
    public record Run(int exit, String output) {
        /** The last line of the output. */
        public String lastLine() {
            String[] lines = output.strip().split("\n");
            return lines[lines.length - 1].strip();
        }
    }

    /**
     * Runs {@code bash SCRIPT ARGS} with {@code env} added to this JVM's environment and returns its exit status and
     * output, whatever the status. Throws an IllegalStateException naming the command if it cannot run, is
     * interrupted, or outlasts {@code timeoutSeconds}: then it and every process it started are killed first. The
     * output goes to a temporary file, not a pipe, so the timeout holds even if a server the script starts keeps its
     * output open.
     */
    public static Run run(Path script, long timeoutSeconds, Map<String, String> env, String... args) {
        String command = label(script) + " " + String.join(" ", args);
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(List.of(args));
        Path log = null;
        try {
            log = Files.createTempFile("bg-" + stem(script) + "-", ".out");
            // The server does not inherit BG's batch policy (the bg launcher's BG_SCHED=batch; SchedulingPolicy).
            ProcessBuilder pb = new ProcessBuilder(SchedulingPolicy.forStoreServer(cmd))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                killTree(p);
                throw new IllegalStateException(command + " did not finish within " + timeoutSeconds + " s: "
                        + Files.readString(log).strip());
            }
            return new Run(p.exitValue(), Files.readString(log));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        } finally {
            if (log != null) {
                log.toFile().delete();
            }
        }
    }

    /**
     * {@link #run} for a command that must succeed: its output, or an IllegalStateException naming the command, its
     * exit status and its output.
     */
    public static String runOrThrow(Path script, long timeoutSeconds, Map<String, String> env, String... args) {
        Run r = run(script, timeoutSeconds, env, args);
        if (r.exit() != 0) {
            throw new IllegalStateException(label(script) + " " + String.join(" ", args) + " failed (exit " + r.exit()
                    + "): " + r.output().strip());
        }
        return r.output();
    }

    /** SIGKILL the process and its descendants (listed before any dies), then wait up to 10 s for them to exit. */
    private static void killTree(Process p) {
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        tree.forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        tree.add(p.toHandle());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                // Still running after SIGKILL (e.g. in uninterruptible sleep): nothing more to do.
            }
        }
    }

    /** "scripts/NAME.sh": the script's directory and name, as the messages show it. */
    static String label(Path script) {
        Path parent = script.getParent();
        return parent == null || parent.getFileName() == null
                ? script.toString()
                : parent.getFileName() + "/" + script.getFileName();
    }

    private static String stem(Path script) {
        String n = script.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    // --- JDK 17/11 ---------------------------------------------------------------------------------------------------

    /**
     * A JDK 17 or 11 in the directory the environment variable {@code homeEnvVar} names (when set), else under
     * /usr/lib/jvm, as scripts/cassandra.sh and scripts/hbase.sh look for one.
     */
    public static boolean jdk17or11Found(String homeEnvVar) {
        return jdk17or11Found(System.getenv(homeEnvVar), Path.of("/usr/lib/jvm"));
    }

    /** A JDK 17 or 11 in {@code home} when it is given (not null or blank), else in a directory of {@code jvmDir}. */
    static boolean jdk17or11Found(String home, Path jvmDir) {
        if (home != null && !home.isBlank()) {
            return isJdk17or11(Path.of(home));
        }
        try (Stream<Path> homes = Files.list(jvmDir)) {
            return homes.anyMatch(ServerScripts::isJdk17or11);
        } catch (IOException e) {
            return false;
        }
    }

    /** An executable bin/java and a release file whose JAVA_VERSION starts with 17 or 11. */
    static boolean isJdk17or11(Path home) {
        if (!Files.isExecutable(home.resolve("bin/java"))) {
            return false;
        }
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return v.startsWith("17") || v.startsWith("11");
                }
            }
        } catch (IOException e) {
            // No release file: not a JDK this check recognises.
        }
        return false;
    }

    // --- cleanup -----------------------------------------------------------------------------------------------------

    /**
     * The {@code key=value} lines of a script's output whose key starts with {@code prefix} (its other lines are
     * messages).
     */
    public static Map<String, String> settings(String out, String prefix) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : out.strip().split("\n")) {
            int eq = line.indexOf('=');
            if (line.startsWith(prefix) && eq > 0) {
                m.put(line.substring(0, eq), line.substring(eq + 1).strip());
            }
        }
        return m;
    }

    /** The pids a script printed, one a line. */
    public static List<Long> pids(String out) {
        return out.strip().lines().map(String::strip).map(Long::parseLong).toList();
    }

    /**
     * The first column of {@code sql}'s first row, polled on {@code st} until it has one or {@code timeout} passes (an
     * asynchronous replica applies a primary's write a little later); null when it never came.
     */
    public static String awaitValue(Statement st, String sql, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String v = null;
        while (v == null && System.nanoTime() < deadline) {
            try (ResultSet rs = st.executeQuery(sql)) {
                v = rs.next() ? rs.getString(1) : null;
            } catch (SQLException e) {
                // the table's creation not applied yet
            }
            if (v == null) {
                Thread.onSpinWait();
            }
        }
        return v;
    }

    /**
     * SIGKILLs the processes {@code pids} that were started for {@code dir} (their command line names it: guards
     * against a reused pid; one whose command line cannot be read counts as started for it), waits up to 20 s for
     * each to exit, then deletes {@code dir}. A test server's data is deleted right after, so a clean shutdown would
     * only cost time; a frozen (SIGSTOPped) process dies too.
     */
    public static void killAndDelete(Path dir, List<Long> pids) {
        List<ProcessHandle> procs = new ArrayList<>();
        for (long pid : pids) {
            ProcessHandle.of(pid)
                    .filter(h -> h.info()
                            .commandLine()
                            .map(c -> c.contains(dir.toString()))
                            .orElse(true))
                    .ifPresent(procs::add);
        }
        procs.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle h : procs) {
            try {
                h.onExit().get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                // Deleting below still frees most of the disk.
            }
        }
        deleteTree(dir);
    }

    /** Deletes {@code dir} and everything under it, as far as it can; nothing when it is null or absent. */
    public static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // A leftover temporary directory is harmless.
        }
    }
}
