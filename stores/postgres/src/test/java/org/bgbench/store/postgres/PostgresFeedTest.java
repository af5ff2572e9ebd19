package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.RelationalFeedSuite;
import org.bgbench.store.relational.RelationalSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Feed following in every feed design on one embedded PostgreSQL, in a database of its own (an image restore drops
 * and recreates it, so no other handle may sit in it); and the plans of the feed statements on a store with many
 * shares.
 */
@Tag("server")
class PostgresFeedTest extends RelationalFeedSuite {
    /** A URL parameter giving every connection {@code plan_cache_mode = force_custom_plan}. */
    static final String CUSTOM_PLANS = "?options=-c%20plan_cache_mode%3Dforce_custom_plan";

    private PostgresStore server;
    private String url;

    @BeforeAll
    void start() throws Exception {
        server = PostgresStore.open(PostgresConfig.embedded().pool(2).build());
        try (Connection c = DriverManager.getConnection(server.url(), "postgres", "");
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE feed");
        }
        // Custom plans only (same statements, same results): right after a load the share tables hold no
        // statistics, and from the sixth execution of the prepared pull-feed statement PostgreSQL took a generic plan
        // costing about 30 ms a call instead of 0.3 ms until autovacuum analyzed the shares a minute later: 90 s of
        // this class's compare-every-feed steps went to that plan, not to what they check.
        url = server.url().replaceFirst("/[^/?]*(\\?.*)?$", "/feed$1") + CUSTOM_PLANS;
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected DataStore open(FeedDesign design) {
        return PostgresStore.open(PostgresConfig.at(url).pool(2).feed(design).build());
    }

    /**
     * With 40,000 shares (a quarter to lists) and, for push designs, a feed row per share and friend, each feed
     * statement reads shares and feeds through indexes: no sequential scan of shares, recipients or newsfeed.
     */
    @ParameterizedTest
    @MethodSource("designs")
    void feedStatementsUseIndexes(FeedDesign design) throws Exception {
        SocialGraph graph = new SocialGraph(spec());
        try (DataStore store = open(design)) {
            load(store, graph);
            RelationalSchema schema = new RelationalSchema(graph.attributeCount(), 1, design, true);
            try (Connection c = DriverManager.getConnection(url, "postgres", "");
                    Statement st = c.createStatement()) {
                long resources = graph.totalResources() + graph.totalPageResources();
                st.execute("INSERT INTO shares SELECT g, r.rid, r.creatorid, CASE WHEN g % 4 = 0 THEN 0 ELSE 1 END"
                        + " FROM generate_series(1, 40000) g JOIN resources r ON r.rid = g % " + resources);
                st.execute("INSERT INTO share_recipients SELECT s.srid, (s.srid * 7 + k) % " + graph.members()
                        + " FROM shares s, generate_series(0, 2) k WHERE s.ispublic = 0");
                if (design.push()) {
                    st.execute("INSERT INTO newsfeed (userid, srid, rid, creatorid) SELECT f.inviteeid, s.srid,"
                            + " s.rid, s.creatorid FROM shares s JOIN friendship f ON f.inviterid = s.creatorid");
                }
                st.execute("ANALYZE");
                for (Map.Entry<String, String> e : schema.feedStatements().entrySet()) {
                    String plan = plan(c, e.getKey(), e.getValue());
                    assertThat(plan)
                            .as("%s plan of %s:%n%s", design, e.getKey(), plan)
                            .doesNotContain("Seq Scan on shares")
                            .doesNotContain("Seq Scan on share_recipients")
                            .doesNotContain("Seq Scan on newsfeed");
                    if (e.getKey().equals("pull")) {
                        assertThat(plan)
                                .contains("Index Scan Backward using shares_creator")
                                .doesNotContain("Index Scan Backward using shares_pkey");
                    }
                    if (e.getKey().equals("sortedPush")) {
                        assertThat(plan).contains("newsfeed_pkey").doesNotContain("Sort");
                    }
                }
            }
        }
    }

    /** The plan of {@code sql} with every parameter 7 (a member, a share id, a k). */
    private static String plan(Connection c, String name, String sql) throws Exception {
        int params = (int) sql.chars().filter(ch -> ch == '?').count();
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
            for (int i = 1; i <= params; i++) {
                ps.setInt(i, 7);
            }
            StringBuilder out = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.append(rs.getString(1)).append('\n');
                }
            }
            System.out.println("-- " + name + "\n" + out);
            return out.toString();
        }
    }
}
