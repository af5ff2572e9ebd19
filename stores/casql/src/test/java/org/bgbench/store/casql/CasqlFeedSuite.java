package org.bgbench.store.casql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.postgres.PostgresStore;
import org.bgbench.store.relational.RelationalFeedSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The relational stores' feed suite through {@code casql} in invalidate mode, every feed design: its comparisons of
 * every member's VNF with BG's oracle after shares, AFR, TF, clearShares and image restores are then reads through
 * the cache (the first fills, later ones hit unless a write deleted the key). One embedded PostgreSQL and one cache
 * server per class; subclasses name the cache.
 */
abstract class CasqlFeedSuite extends RelationalFeedSuite {
    private CasqlBackends backends;
    /** A database of the suite's own: an image copies it as a template, which needs no one else connected. */
    private String url;

    /** The cache server to start, or null for the in-process cache. */
    abstract CacheServer.Kind server();

    @BeforeAll
    void start() {
        backends = CasqlBackends.start(server());
        PostgresStore postgres = backends.postgres();
        try (Connection c = DriverManager.getConnection(postgres.url(), "postgres", "");
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE casql_feed");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        // Custom plans only (same statements, same results), as in PostgresFeedTest: right after a load the share
        // tables hold no statistics, and PostgreSQL's generic plan of the prepared pull-feed statement is far slower
        // until autovacuum has analyzed them.
        url = postgres.url().replaceAll("/postgres$", "/casql_feed")
                + "?options=-c%20plan_cache_mode%3Dforce_custom_plan";
    }

    @AfterAll
    void stop() {
        if (backends != null) {
            backends.close();
        }
    }

    @Override
    protected DataStore open(FeedDesign design) {
        Map<String, String> s = backends.cacheSettings();
        s.put("consistency", "invalidate");
        s.put("postgres.url", url);
        s.put("postgres.pool", "8");
        s.put(FeedDesign.DESIGN_KEY, design.kind().setting());
        s.put(FeedDesign.PUSH_KEY, design.content() ? "content" : "reference");
        s.putAll(moreSettings());
        CasqlStoreProvider provider = new CasqlStoreProvider();
        return provider.open(StoreSettings.forProvider(provider, s));
    }

    /** Settings a subclass adds, e.g. a physical design of the postgres store underneath. */
    Map<String, String> moreSettings() {
        return Map.of();
    }
}
