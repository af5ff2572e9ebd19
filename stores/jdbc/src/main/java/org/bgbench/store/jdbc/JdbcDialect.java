package org.bgbench.store.jdbc;

import java.io.IOException;
import java.io.StringReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.ErrorText;
import org.bgbench.store.mariadb.MariadbDialect;
import org.bgbench.store.mariadb.MariadbStore;
import org.bgbench.store.postgres.PostgresDialect;
import org.bgbench.store.relational.BatchInsertSink;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.SqlDialect;
import org.bgbench.store.sqlite.SqliteDialect;

/**
 * The dialect {@code jdbc.dialect} chose: one of the SQL stores' own dialects ({@code postgresql}, {@code mariadb},
 * {@code sqlite}), the portable {@code generic} one, or a dialect file. The stores' dialects are used as they are
 * except for the bulk path: COPY and LOAD DATA INFILE need the driver's own classes, which live in another class
 * loader here, so every jdbc dialect loads through JDBC batches ({@link BatchInsertSink}).
 *
 * @param choice  what was chosen: {@code postgresql}, {@code mariadb}, {@code sqlite}, {@code generic} or the file
 * @param guessed whether it was guessed from the URL rather than given
 * @param file    the file dialect ({@code generic} or a user's file); null for the stores' dialects
 * @param init    statements run on every new connection
 */
record JdbcDialect(String choice, boolean guessed, FileDialect file, List<String> init) {
    static final String POSTGRESQL = "postgresql";
    static final String MARIADB = "mariadb";
    static final String SQLITE = "sqlite";
    static final String GENERIC = "generic";

    /**
     * Run on every MariaDB/MySQL connection, as the mariadb store does: ANSI_QUOTES so BG's {@code "key"} is an
     * identifier, InnoDB, and READ COMMITTED (fewer gap locks, so concurrent friendship writes do not deadlock).
     */
    static final List<String> MARIADB_INIT = List.of(
            "SET SESSION sql_mode = CONCAT_WS(',', NULLIF(@@sql_mode, ''), 'ANSI_QUOTES'), "
                    + "default_storage_engine = InnoDB",
            "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
    /**
     * Run on every SQLite connection, as the sqlite store configures its own: WAL so readers never block the one
     * writer, and a busy timeout for other processes' locks.
     */
    static final List<String> SQLITE_INIT =
            List.of("PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA busy_timeout = 30000");

    /** The values of {@code jdbc.dialect} that name a built-in dialect rather than a dialect file. */
    static final List<String> NAMES =
            List.of("postgresql", "postgres", "mariadb", "mysql", "sqlite", "generic", "ansi");

    /** The dialect of {@code value}, or the one guessed from {@code url} when {@code value} is empty. */
    static JdbcDialect of(String value, String url) {
        if (value == null || value.isBlank()) {
            return named(guess(url), true);
        }
        String v = value.trim();
        String lower = v.toLowerCase(Locale.ROOT);
        return switch (lower) {
            case "postgresql", "postgres", "mariadb", "mysql", "sqlite", "generic", "ansi" ->
                named(
                        switch (lower) {
                            case "postgres" -> POSTGRESQL;
                            case "mysql" -> MARIADB;
                            case "ansi" -> GENERIC;
                            default -> lower;
                        },
                        false);
            default -> {
                if (!v.contains("/") && !v.contains("\\") && !lower.endsWith(".properties")) {
                    throw new InvalidParameterException(
                            JdbcStoreProvider.DIALECT,
                            "expected one of postgresql, "
                                    + "mariadb (or mysql), sqlite, generic (or ansi), or the path of a .properties dialect "
                                    + "file, got '" + v + "'");
                }
                yield file(Path.of(v));
            }
        };
    }

    /** The dialect a URL's prefix suggests: postgresql, mariadb, sqlite, else generic. */
    static String guess(String url) {
        String u = url == null ? "" : url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        if (u.startsWith("jdbc:mariadb:") || u.startsWith("jdbc:mysql:")) {
            return MARIADB;
        }
        if (u.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        return GENERIC;
    }

    private static JdbcDialect named(String name, boolean guessed) {
        return switch (name) {
            case MARIADB -> new JdbcDialect(name, guessed, null, MARIADB_INIT);
            case SQLITE -> new JdbcDialect(name, guessed, null, SQLITE_INIT);
            case GENERIC -> new JdbcDialect(name, guessed, new FileDialect(new Properties(), "generic"), List.of());
            default -> new JdbcDialect(name, guessed, null, List.of());
        };
    }

    private static JdbcDialect file(Path path) {
        if (!Files.isRegularFile(path)) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.DIALECT,
                    "no such dialect file: " + path.toAbsolutePath()
                            + " (or give one of postgresql, mariadb, sqlite, generic)");
        }
        Properties p = new Properties();
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
            p.load(new StringReader(String.join("\n", lines)));
        } catch (CharacterCodingException e) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.DIALECT,
                    "dialect file " + path + ": not UTF-8 text (a dialect file is a .properties text file)");
        } catch (IllegalArgumentException e) {
            // Properties says only "Malformed \\uxxxx encoding": a bad escape, no text of the file.
            throw new InvalidParameterException(
                    JdbcStoreProvider.DIALECT,
                    "dialect file " + path + ": a malformed \\u escape (a dialect file is a .properties text file)");
        } catch (IOException e) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.DIALECT, "cannot read dialect file " + path + ": " + ErrorText.of(e));
        }
        FileDialect d = new FileDialect(p, path.toString(), lines);
        return new JdbcDialect(path.toString(), false, d, d.init());
    }

    SqlRewriter rewriter() {
        return file == null ? SqlRewriter.NONE : file.rewriter();
    }

    /**
     * The {@link SqlDialect} for a server of {@code version} (major × 10000 + minor, as PostgreSQL's
     * {@code server_version_num}).
     */
    SqlDialect sql(int version) {
        if (file != null) {
            return file;
        }
        SqlDialect base = switch (choice) {
            case POSTGRESQL -> new PostgresDialect(version);
            case MARIADB -> new MariadbDialect(MariadbStore.Bulk.BATCH);
            default -> new SqliteDialect();
        };
        return batched(base);
    }

    /** {@code base} with JDBC batches as its bulk path; every other method, present or future, is base's. */
    private static SqlDialect batched(SqlDialect base) {
        return (SqlDialect) Proxy.newProxyInstance(
                SqlDialect.class.getClassLoader(), new Class<?>[] {SqlDialect.class}, (proxy, method, args) -> {
                    if (method.getName().equals("openSink")) {
                        return new BatchInsertSink((Connection) args[0], (RelationalSchema) args[1]);
                    }
                    if (method.getDeclaringClass() == Object.class) {
                        return switch (method.getName()) {
                            case "toString" -> base.name() + " (JDBC batches)";
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            default -> invoke(method, base, args);
                        };
                    }
                    return invoke(method, base, args);
                });
    }

    private static Object invoke(Method m, Object target, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** For messages and {@code bg stores}: e.g. {@code generic (guessed from jdbc.url)}. */
    String describe() {
        return choice + (guessed ? " (guessed from " + JdbcStoreProvider.URL + ")" : "");
    }
}
