package org.bgbench.store.mariadb;

import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.StoreTraits;
import org.bgbench.store.relational.PhysicalDesign;
import org.bgbench.store.relational.ReadReplicas;
import org.bgbench.store.relational.SchemaDesign;

/** The {@code mariadb} store: MariaDB or MySQL (InnoDB) over MariaDB Connector/J with BG's Basic relational design. */
public final class MariadbStoreProvider implements StoreProvider {
    static final String URL = "mariadb.url";
    static final String USER = "mariadb.user";
    static final String PASSWORD = "mariadb.password";
    static final String POOL = "mariadb.pool";
    static final String TIMEOUT = "mariadb.timeout";
    static final String READ_URLS = "mariadb.read-urls";
    static final String BULK = "mariadb.bulk";
    static final String FRIENDSHIP_ROWS = "friendship.rows";
    static final String DEFAULT_URL = "jdbc:mariadb://127.0.0.1:3306/bg";
    /** The user scripts/mariadb.sh creates. */
    static final String DEFAULT_USER = "bg";

    static final String DEFAULT_PASSWORD = "bg";

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public String description() {
        return "MariaDB or MySQL (Connector/J, HikariCP, LOAD DATA LOCAL INFILE load, InnoDB): relational Basic design,"
                + " one friendship table with status";
    }

    @Override
    public List<StoreSetting> settings() {
        List<StoreSetting> all = new ArrayList<>(List.of(
                StoreSetting.of(
                        StoreSetting.Kind.DATABASE_URL,
                        URL,
                        DEFAULT_URL,
                        "JDBC URL jdbc:mariadb://host:port/database (also for MySQL); scripts/mariadb.sh url DIR "
                                + "prints the one of a private server"),
                new StoreSetting(USER, DEFAULT_USER, "user to log in as"),
                new StoreSetting(PASSWORD, DEFAULT_PASSWORD, "password of the user"),
                new StoreSetting(
                        POOL,
                        "0",
                        "session connections (each emulator thread holds one); 0: max_connections less a margin, "
                                + "at most 128"),
                new StoreSetting(
                        BULK,
                        "infile",
                        "load path: infile = LOAD DATA LOCAL INFILE from memory (the server needs local_infile=ON), "
                                + "batch = JDBC batches of INSERTs"),
                new StoreSetting(
                        FRIENDSHIP_ROWS,
                        "1",
                        "rows per confirmed friendship: 1 (USC BG's Basic) or 2 (one per direction)"),
                // No default value: it follows β, as postgres.timeout does.
                new StoreSetting(
                        TIMEOUT,
                        null,
                        "longest a session's statement runs before the server stops it (max_statement_time); a server "
                                + "that does not answer at all is given up 1 s later (socket timeout), and connecting "
                                + "or waiting for a pooled connection is bounded by it too; at least 1s; default "
                                + "max(10s, 100·β)")));
        all.addAll(PhysicalDesign.settings("~/.bg/images/mariadb-<database>"));
        all.addAll(FeedDesign.settings());
        all.addAll(ReadReplicas.settings("mariadb", "MariaDB or MySQL"));
        return List.copyOf(all);
    }

    /** LOAD DATA LOCAL INFILE on 4 connections: 573,000 rows/s for M = 10,000 on 2 cores (docs/benchmarks.md). */
    @Override
    public double loadRowsPerSecond() {
        return 300_000;
    }

    @Override
    public StoreTraits traits() {
        return StoreTraits.SERVER;
    }

    @Override
    public DataStore open(StoreSettings settings) {
        return MariadbStore.open(config(settings));
    }

    static MariadbStore.Config config(StoreSettings s) {
        int pool = s.getInt(POOL, 0);
        if (pool < 0) {
            throw new InvalidParameterException(POOL, "must be 0 (automatic) or more, got " + pool);
        }
        String url = s.get(URL);
        String user = s.get(USER);
        String password = s.get(PASSWORD);
        String jdbc = url == null || url.isBlank() ? DEFAULT_URL : url.trim();
        String database = jdbc.replaceFirst("[?;].*$", "");
        database = database.substring(database.lastIndexOf('/') + 1);
        MariadbStore.Config.Login login = new MariadbStore.Config.Login(
                jdbc,
                user == null || user.isBlank() ? DEFAULT_USER : user,
                password == null ? DEFAULT_PASSWORD : password);
        MariadbStore.Bulk bulk = switch (s.getChoice(BULK, "infile", "infile", "batch")) {
            case "batch" -> MariadbStore.Bulk.BATCH;
            default -> MariadbStore.Bulk.INFILE;
        };
        SchemaDesign schema = new SchemaDesign(
                Integer.parseInt(s.getChoice(FRIENDSHIP_ROWS, "1", "1", "2")),
                FeedDesign.from(s),
                PhysicalDesign.from(s, PhysicalDesign.defaultServerImagesDir("mariadb", database)));
        return new MariadbStore.Config(
                login, pool, bulk, s.timeout(TIMEOUT), schema, ReadReplicas.from(s, "mariadb", "jdbc:mariadb://"));
    }
}
