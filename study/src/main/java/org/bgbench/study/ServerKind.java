package org.bgbench.study;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A server BG starts for a study's store through the installation's own script ({@code scripts/NAME.sh start DIR
 * ARGS}, {@code settings DIR} for the store's {@code -p} keys, {@code stop DIR}): which store it serves, the options
 * its script takes, and the software it needs, checked before a study runs.
 */
public enum ServerKind {
    MARIADB("mariadb", "mariadb.sh", "pid", "mariadb", List.of()),
    FERRETDB("ferretdb", "ferretdb.sh", "pids", "mongodb", List.of(Option.choice("backend", "sqlite", "postgresql"))),
    CASSANDRA("cassandra", "cassandra.sh", "pid", "cassandra", List.of(Option.count("nodes", 1, 9))),
    HBASE("hbase", "hbase.sh", "pid", "hbase", List.of()),
    POSTGRES_REPLICA(
            "postgres-replica",
            "postgres-replica.sh",
            "pids",
            "postgres",
            List.of(Option.count("replicas", 0, 9), Option.delay("delay")));

    private static final String APT = "sudo apt-get install --no-install-recommends ";

    private final String key;
    private final String script;
    private final String pidCommand;
    private final String store;
    private final List<Option> options;

    ServerKind(String key, String script, String pidCommand, String store, List<Option> options) {
        this.key = key;
        this.script = script;
        this.pidCommand = pidCommand;
        this.store = store;
        this.options = options;
    }

    /**
     * An option of a server's script, given as {@code --name value}.
     *
     * @param name    the option's name in the study file and the script
     * @param choices the accepted texts (empty: a number or a duration)
     * @param min     the least whole number (a count), or -1
     * @param max     the greatest whole number (a count), or -1
     */
    public record Option(String name, List<String> choices, int min, int max) {
        static Option choice(String name, String... choices) {
            return new Option(name, List.of(choices), -1, -1);
        }

        static Option count(String name, int min, int max) {
            return new Option(name, List.of(), min, max);
        }

        /** A delay as the replica scripts take it: 0, 500ms, 0.5s, 2s. */
        static Option delay(String name) {
            return new Option(name, List.of(), -1, -1);
        }

        boolean isCount() {
            return min >= 0;
        }

        boolean isDelay() {
            return choices.isEmpty() && !isCount();
        }
    }

    /** Its name in a study file. */
    public String key() {
        return key;
    }

    /** The script under {@code scripts/}. */
    public String script() {
        return script;
    }

    /** The script's subcommand that prints the server's pids, one a line. */
    public String pidCommand() {
        return pidCommand;
    }

    /** The BG store it serves. */
    public String store() {
        return store;
    }

    /** The options its script accepts. */
    public List<Option> options() {
        return options;
    }

    /** The kind named {@code key}. */
    public static Optional<ServerKind> of(String key) {
        return Stream.of(values()).filter(k -> k.key.equals(key)).findFirst();
    }

    /** Every kind's name, for messages. */
    public static String names() {
        return String.join(", ", Stream.of(values()).map(ServerKind::key).toList());
    }

    /**
     * What of the server's software is missing on this machine and how to install it, in one sentence; empty when
     * everything its script needs is there (the script itself checks the same, later and at length).
     */
    public Optional<String> missing(Map<String, String> options) {
        return switch (this) {
            case MARIADB ->
                found("MARIADB_BIN", "mariadbd", "/usr/sbin", "/usr/local/sbin", "/usr/bin")
                        ? Optional.empty()
                        : Optional.of("mariadbd (Debian's MariaDB server) is not installed; install it: " + APT
                                + "mariadb-server mariadb-client");
            case FERRETDB -> {
                boolean launcher = present(System.getenv("FERRETDB_BIN"))
                        || found(null, "go", "/usr/local/go/bin", "/usr/lib/go/bin");
                if (!launcher) {
                    yield Optional.of("Go (1.24 or newer, to build FerretDB) is not installed; install it from "
                            + "https://go.dev/dl into /usr/local/go, or set FERRETDB_BIN to a built launcher");
                }
                yield "postgresql".equals(options.get("backend")) ? postgres() : Optional.empty();
            }
            case CASSANDRA -> jdk17("CASSANDRA_JAVA_HOME");
            case HBASE -> jdk17("HBASE_JAVA_HOME");
            case POSTGRES_REPLICA -> postgres();
        };
    }

    private static Optional<String> postgres() {
        String bin = System.getenv("PG_BIN");
        if (present(bin)
                ? Files.isExecutable(Path.of(bin, "initdb"))
                : newestPostgres().isPresent()) {
            return Optional.empty();
        }
        return Optional.of("PostgreSQL's server programs (initdb, pg_ctl) are not installed; install them: " + APT
                + "postgresql (or set PG_BIN)");
    }

    private static Optional<Path> newestPostgres() {
        try (Stream<Path> d = Files.list(Path.of("/usr/lib/postgresql"))) {
            return d.map(p -> p.resolve("bin"))
                    .filter(p -> Files.isExecutable(p.resolve("initdb")))
                    .max(Comparator.naturalOrder());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> jdk17(String homeVar) {
        String home = System.getenv(homeVar);
        boolean ok;
        if (present(home)) {
            ok = Files.isExecutable(Path.of(home, "bin", "java"));
        } else {
            try (Stream<Path> d = Files.list(Path.of("/usr/lib/jvm"))) {
                ok = d.anyMatch(p -> Files.isExecutable(p.resolve("bin/java")) && isJdk17or11(p));
            } catch (IOException e) {
                ok = false;
            }
        }
        return ok
                ? Optional.empty()
                : Optional.of("a JDK 17 (or 11), which the server runs on, is not installed; install it: " + APT
                        + "openjdk-17-jdk-headless (or set " + homeVar + ")");
    }

    private static boolean isJdk17or11(Path home) {
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return v.startsWith("17") || v.startsWith("11");
                }
            }
        } catch (IOException e) {
            // no release file: not a JDK this check recognises
        }
        return false;
    }

    /** Whether {@code name} is in the directory {@code envDir} names, one of {@code dirs}, or PATH. */
    private static boolean found(String envDir, String name, String... dirs) {
        if (envDir != null && present(System.getenv(envDir))) {
            return Files.isExecutable(Path.of(System.getenv(envDir), name));
        }
        for (String d : dirs) {
            if (Files.isExecutable(Path.of(d, name))) {
                return true;
            }
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                return true;
            }
        }
        return false;
    }

    private static boolean present(String v) {
        return v != null && !v.isBlank();
    }
}
