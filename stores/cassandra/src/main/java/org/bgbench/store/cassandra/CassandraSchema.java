package org.bgbench.store.cassandra;

import java.util.ArrayList;
import java.util.List;
import org.bgbench.store.FeedDesign;

/**
 * BG's tables in CQL (the Cassandra/NuoDB report's design, chapter "Cassandra Schema Description", with the changes the
 * module's README explains). Members hold their confirmed friends, pending inviters and followed pages as sets, so
 * every friendship action changes member rows only; a wall's resources are one partition, newest first, so View
 * Top-K Resources reads its first k rows.
 */
final class CassandraSchema {
    static final String MEMBERS = "members";
    static final String RESOURCES = "resources";
    /** Comments partitioned by resource (design bg). */
    static final String COMMENTS = "comments";
    /** Comments keyed by comment id, with a secondary index on the resource (design report: "Manipulation"). */
    static final String MANIPULATION = "manipulation";

    static final String PAGES = "pages";
    static final String SHARES = "shares";
    static final String FEEDS = "feeds";
    static final String META = "bg_meta";

    private CassandraSchema() {}

    /** The tables a keyspace for {@code config} holds, in creation order. */
    static List<String> tables(CassandraConfig config) {
        List<String> t = new ArrayList<>(List.of(
                META,
                MEMBERS,
                RESOURCES,
                config.design() == CassandraConfig.Design.REPORT ? MANIPULATION : COMMENTS,
                PAGES,
                SHARES));
        if (config.feed().push()) {
            t.add(FEEDS);
        }
        return t;
    }

    static String createKeyspace(CassandraConfig c) {
        return "CREATE KEYSPACE " + c.keyspace() + " WITH replication = {'class': 'NetworkTopologyStrategy', '"
                + c.datacenter().replace("'", "''") + "': " + c.replicationFactor() + "} AND durable_writes = "
                + c.durableWrites();
    }

    /** CREATE TABLE (and CREATE INDEX) statements of every table. */
    static List<String> create(CassandraConfig c) {
        String ks = c.keyspace() + ".";
        String options = tableOptions(c);
        List<String> out = new ArrayList<>();
        // One row: a single partition, so a statement that sets several columns is atomic and isolated.
        out.add("CREATE TABLE " + ks + META + " (id int PRIMARY KEY, graph text, mark text, design text, members int, "
                + "member_offset int)");
        out.add("CREATE TABLE " + ks + MEMBERS + " (userid int PRIMARY KEY, attrs frozen<list<text>>, pic blob, "
                + "tpic blob, friends set<int>, pending set<int>, pages set<int>, resources int) WITH " + options);
        out.add("CREATE TABLE " + ks + RESOURCES + " (walluserid int, rid bigint, creatorid int, type text, body text, "
                + "doc text, PRIMARY KEY (walluserid, rid)) WITH CLUSTERING ORDER BY (rid DESC) AND " + options);
        if (c.design() == CassandraConfig.Design.REPORT) {
            out.add("CREATE TABLE " + ks + MANIPULATION + " (mid bigint PRIMARY KEY, rid bigint, creatorid int, "
                    + "modifierid int, ts bigint, type text, content text) WITH " + options);
            out.add("CREATE INDEX manipulation_rid ON " + ks + MANIPULATION + " (rid)");
        } else {
            out.add("CREATE TABLE " + ks + COMMENTS + " (rid bigint, mid bigint, creatorid int, modifierid int, "
                    + "ts bigint, content text, PRIMARY KEY (rid, mid)) WITH " + options);
        }
        out.add("CREATE TABLE " + ks + PAGES + " (pageid int PRIMARY KEY, name text, followers set<int>) WITH "
                + options);
        // public: shared with all friends or followers; else recipients lists who may see it.
        out.add("CREATE TABLE " + ks + SHARES + " (sharer int, shareid bigint, rid bigint, public boolean, "
                + "recipients frozen<set<int>>, PRIMARY KEY (sharer, shareid)) WITH CLUSTERING ORDER BY "
                + "(shareid DESC) AND " + options);
        if (c.feed().push()) {
            // Push keeps a member's feed in arrival order and VNF reads it whole; sorted-push keeps it newest first
            // and VNF reads the first k rows (dissertation 8.4.2).
            String order = c.feed().kind() == FeedDesign.Kind.SORTED_PUSH ? "DESC" : "ASC";
            out.add("CREATE TABLE " + ks + FEEDS + " (member int, shareid bigint, sharer int, rid bigint, type text, "
                    + "body text, doc text, PRIMARY KEY (member, shareid)) WITH CLUSTERING ORDER BY (shareid "
                    + order + ") AND " + options);
        }
        return out;
    }

    /** The options that decide whether a stale replica shows (see the README): speculative retry and read repair. */
    static String tableOptions(CassandraConfig c) {
        return "speculative_retry = '" + c.speculativeRetry() + "' AND read_repair = '" + c.readRepair() + "'";
    }
}
