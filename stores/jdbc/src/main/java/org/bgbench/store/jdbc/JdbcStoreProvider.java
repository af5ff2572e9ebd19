package org.bgbench.store.jdbc;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.relational.PhysicalDesign;
import org.bgbench.store.relational.SchemaDesign;

/**
 * The {@code jdbc} store: BG's Basic relational design on any database with a JDBC driver, the driver loaded from a
 * jar given by path or by Maven coordinates. For engines BG has no binding for (Oracle, SQL Server, CockroachDB,
 * NuoDB, H2, Derby…); see stores/jdbc/README.md.
 */
public final class JdbcStoreProvider implements StoreProvider {
    static final String URL = "jdbc.url";
    static final String DRIVER = "jdbc.driver";
    static final String DRIVER_JAR = "jdbc.driver-jar";
    static final String DRIVER_MAVEN = "jdbc.driver-maven";
    static final String MAVEN_REPO = "jdbc.maven-repo";
    static final String USER = "jdbc.user";
    static final String PASSWORD = "jdbc.password";
    static final String POOL = "jdbc.pool";
    static final String DIALECT = "jdbc.dialect";
    static final String TIMEOUT = "jdbc.timeout";
    static final String FRIENDSHIP_ROWS = "friendship.rows";
    static final String DEFAULT_REPO = "https://repo.maven.apache.org/maven2";
    static final int DEFAULT_POOL = 64;

    @Override
    public String name() {
        return "jdbc";
    }

    @Override
    public String description() {
        return "any JDBC database (driver jar by path or Maven coordinates, HikariCP, JDBC batch load): relational "
                + "Basic design through the postgresql, mariadb, sqlite or generic dialect, or a dialect file";
    }

    @Override
    public List<StoreSetting> settings() {
        List<StoreSetting> all = new ArrayList<>(List.of(
                StoreSetting.of(
                        StoreSetting.Kind.DATABASE_URL,
                        URL,
                        null,
                        "JDBC URL of the database (required), e.g. jdbc:h2:/data/bg, "
                                + "jdbc:sqlserver://host;databaseName=bg, jdbc:oracle:thin:@//host:1521/bg"),
                StoreSetting.of(
                        StoreSetting.Kind.CLASS_NAME,
                        DRIVER,
                        null,
                        "driver class, e.g. org.h2.Driver; default: the driver the jars "
                                + "register (META-INF/services) that accepts jdbc.url"),
                StoreSetting.of(
                        StoreSetting.Kind.JAR,
                        DRIVER_JAR,
                        null,
                        "driver jar file(s), comma separated; without it or "
                                + "jdbc.driver-maven the driver comes from BG's class path (SQLite, PostgreSQL, MariaDB)"),
                StoreSetting.of(
                        StoreSetting.Kind.MAVEN_ARTIFACT,
                        DRIVER_MAVEN,
                        null,
                        "driver as Maven coordinates group:artifact:version, comma "
                                + "separated; taken from ~/.m2/repository, else downloaded from jdbc.maven-repo into "
                                + "~/.bg/drivers after a SHA-1 check; the jar alone, no transitive dependencies"),
                StoreSetting.of(
                        StoreSetting.Kind.CODE_REPOSITORY,
                        MAVEN_REPO,
                        DEFAULT_REPO,
                        "Maven repository jdbc.driver-maven downloads from " + "(https, http or file URL)"),
                new StoreSetting(USER, null, "user to log in as (or in the URL, if the driver takes it there)"),
                new StoreSetting(PASSWORD, null, "password of the user"),
                new StoreSetting(
                        POOL,
                        Integer.toString(DEFAULT_POOL),
                        "session connections (each emulator thread holds one); loaders open their own"),
                StoreSetting.fileOrName(
                        DIALECT,
                        null,
                        "postgresql, mariadb (also MySQL), sqlite, generic "
                                + "(portable SQL; alias ansi), or the path of a .properties dialect file; default: guessed "
                                + "from jdbc.url's prefix (jdbc:postgresql, jdbc:mariadb or jdbc:mysql, jdbc:sqlite, else "
                                + "generic)",
                        JdbcDialect.NAMES.toArray(String[]::new)),
                // No default value: it follows β, as the other SQL stores' timeouts do.
                new StoreSetting(
                        TIMEOUT,
                        null,
                        "longest a session's statement runs (JDBC query timeout); a server "
                                + "that does not answer at all is given up 1 s later (network timeout, where the driver has "
                                + "one), and waiting for a pooled connection is bounded by it too; at least 1s; default "
                                + "max(10s, 100·β)"),
                new StoreSetting(
                        FRIENDSHIP_ROWS,
                        "1",
                        "rows per confirmed friendship: 1 (USC BG's Basic) or 2 (one per direction)")));
        all.addAll(PhysicalDesign.settings("~/.bg/images/jdbc-<last part of the URL>"));
        all.addAll(FeedDesign.settings());
        return List.copyOf(all);
    }

    @Override
    public DataStore open(StoreSettings settings) {
        return JdbcStore.open(config(settings, defaultResolver(settings)));
    }

    /** Maven's local repository, then ~/.bg/drivers, then {@code jdbc.maven-repo}. */
    static MavenResolver defaultResolver(StoreSettings s) {
        Path home = Path.of(System.getProperty("user.home"));
        URI repo = MavenResolver.repository(MAVEN_REPO, s.get(MAVEN_REPO, DEFAULT_REPO));
        return new MavenResolver(home.resolve(".m2/repository"), home.resolve(".bg/drivers"), repo);
    }

    static JdbcStore.Config config(StoreSettings s, MavenResolver resolver) {
        String url = s.get(URL);
        if (url == null || url.isBlank()) {
            throw new InvalidParameterException(
                    URL,
                    "required: the JDBC URL of the database, e.g. " + "-p jdbc.url=jdbc:h2:/data/bg (see bg stores)");
        }
        url = url.trim();
        if (!url.startsWith("jdbc:")) {
            throw new InvalidParameterException(URL, "expected a JDBC URL starting with jdbc:, got '" + url + "'");
        }
        int pool = s.getInt(POOL, DEFAULT_POOL);
        if (pool < 1) {
            throw new InvalidParameterException(POOL, "must be 1 or more, got " + pool);
        }
        int rows = Integer.parseInt(s.getChoice(FRIENDSHIP_ROWS, "1", "1", "2"));
        FeedDesign feed = FeedDesign.from(s);
        Duration timeout = s.timeout(TIMEOUT);
        JdbcDialect dialect = JdbcDialect.of(s.get(DIALECT), url);
        String driver = s.get(DRIVER);
        if (driver != null
                && !driver.isBlank()
                && !driver.trim().matches("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*")) {
            throw new InvalidParameterException(
                    DRIVER, "expected a class name such as org.h2.Driver, got '" + driver + "'");
        }
        List<Path> jars = new ArrayList<>();
        String jarValue = s.get(DRIVER_JAR);
        if (jarValue != null && !jarValue.isBlank()) {
            jars.addAll(DriverLoader.jars(jarValue));
        }
        String maven = s.get(DRIVER_MAVEN);
        if (maven != null && !maven.isBlank()) {
            for (String coordinates : maven.split(",")) {
                if (!coordinates.isBlank()) {
                    jars.add(resolver.resolve(DRIVER_MAVEN, coordinates));
                }
            }
        }
        String user = s.get(USER);
        JdbcStore.Config.Database database = new JdbcStore.Config.Database(
                url,
                driver == null || driver.isBlank() ? null : driver.trim(),
                List.copyOf(jars),
                user == null || user.isBlank() ? null : user,
                s.get(PASSWORD));
        SchemaDesign schema = new SchemaDesign(
                rows, feed, PhysicalDesign.from(s, PhysicalDesign.defaultServerImagesDir("jdbc", lastPart(url))));
        return new JdbcStore.Config(database, pool, dialect, timeout, schema);
    }

    /** What a URL names last (a database, a file), without parameters: the default image directory's name. */
    static String lastPart(String url) {
        String path = url.replaceFirst("[?;].*$", "");
        return path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf(':')) + 1);
    }
}
