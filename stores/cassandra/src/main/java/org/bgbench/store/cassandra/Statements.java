package org.bgbench.store.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import org.bgbench.store.FeedDesign;

/**
 * Every statement of the actions and the load, prepared once for a store and a read consistency level; reads carry
 * that level, writes the configured write level (bound statements inherit both from the statement prepared). Every
 * statement is idempotent (set additions and removals, inserts and deletes of fixed keys), so the driver may retry
 * any of them after a timeout.
 */
final class Statements {
    final ConsistencyLevel read;
    final ConsistencyLevel write;

    final PreparedStatement profile;
    final PreparedStatement ownProfile;
    /** Design report: VP counts the wall's resources. */
    final PreparedStatement resourceCount;

    final PreparedStatement friends;
    final PreparedStatement pending;
    final PreparedStatement listed;
    final PreparedStatement invite;
    final PreparedStatement acceptInvitee;
    final PreparedStatement acceptInviter;
    final PreparedStatement reject;
    final PreparedStatement unfriend;
    final PreparedStatement topResources;
    final PreparedStatement comments;
    final PreparedStatement postComment;
    final PreparedStatement deleteComment;
    final PreparedStatement insertShare;
    final PreparedStatement sharesOf;
    final PreparedStatement shareIdsOf;
    final PreparedStatement followers;
    final PreparedStatement producers;
    final PreparedStatement resource;
    final PreparedStatement insertFeed;
    final PreparedStatement deleteFeed;
    final PreparedStatement feed;

    // The load's.
    final PreparedStatement loadMember;
    final PreparedStatement loadResource;
    final PreparedStatement loadComment;
    final PreparedStatement loadPage;

    Statements(CqlSession s, CassandraConfig c, ConsistencyLevel readLevel) {
        this.read = readLevel;
        this.write = c.writeConsistency();
        String ks = c.keyspace() + ".";
        String members = ks + CassandraSchema.MEMBERS;
        boolean report = c.design() == CassandraConfig.Design.REPORT;
        String resourceColumn = report ? "" : ", resources";
        profile = read(s, "SELECT attrs, pic, friends" + resourceColumn + " FROM " + members + " WHERE userid = ?");
        ownProfile = read(
                s, "SELECT attrs, pic, friends" + resourceColumn + ", pending FROM " + members + " WHERE userid = ?");
        resourceCount = report
                ? read(s, "SELECT COUNT(*) FROM " + ks + CassandraSchema.RESOURCES + " WHERE walluserid = ?")
                : null;
        friends = read(s, "SELECT friends FROM " + members + " WHERE userid = ?");
        pending = read(s, "SELECT pending FROM " + members + " WHERE userid = ?");
        listed = read(s, "SELECT attrs, tpic FROM " + members + " WHERE userid = ?");
        invite = write(s, "UPDATE " + members + " SET pending = pending + ? WHERE userid = ?");
        acceptInvitee = write(
                s, "UPDATE " + members + " SET pending = pending - ?, friends = friends + ? " + "WHERE userid = ?");
        acceptInviter = write(s, "UPDATE " + members + " SET friends = friends + ? WHERE userid = ?");
        reject = write(s, "UPDATE " + members + " SET pending = pending - ? WHERE userid = ?");
        unfriend = write(s, "UPDATE " + members + " SET friends = friends - ? WHERE userid = ?");
        topResources = read(
                s,
                "SELECT rid, creatorid, type, body, doc FROM " + ks + CassandraSchema.RESOURCES
                        + " WHERE walluserid = ? LIMIT ?");
        if (report) {
            String m = ks + CassandraSchema.MANIPULATION;
            comments = read(s, "SELECT mid, creatorid, modifierid, ts, content FROM " + m + " WHERE rid = ?");
            postComment = write(
                    s,
                    "INSERT INTO " + m + " (mid, rid, creatorid, modifierid, ts, type, content) "
                            + "VALUES (?, ?, ?, ?, ?, 'comment', ?)");
            deleteComment = write(s, "DELETE FROM " + m + " WHERE mid = ?");
            loadComment = postComment;
        } else {
            String m = ks + CassandraSchema.COMMENTS;
            comments = read(s, "SELECT mid, creatorid, modifierid, ts, content FROM " + m + " WHERE rid = ?");
            postComment = write(
                    s,
                    "INSERT INTO " + m + " (rid, mid, creatorid, modifierid, ts, content) "
                            + "VALUES (?, ?, ?, ?, ?, ?)");
            deleteComment = write(s, "DELETE FROM " + m + " WHERE rid = ? AND mid = ?");
            loadComment = postComment;
        }
        String shares = ks + CassandraSchema.SHARES;
        insertShare = write(
                s, "INSERT INTO " + shares + " (sharer, shareid, rid, public, recipients) " + "VALUES (?, ?, ?, ?, ?)");
        sharesOf = read(s, "SELECT shareid, rid, public, recipients FROM " + shares + " WHERE sharer = ?");
        shareIdsOf = read(s, "SELECT shareid FROM " + shares + " WHERE sharer = ?");
        followers = read(s, "SELECT followers FROM " + ks + CassandraSchema.PAGES + " WHERE pageid = ?");
        producers = read(s, "SELECT friends, pages FROM " + members + " WHERE userid = ?");
        resource = read(
                s,
                "SELECT type, body, doc FROM " + ks + CassandraSchema.RESOURCES + " WHERE walluserid = ? AND rid = ?");
        if (c.feed().push()) {
            String feeds = ks + CassandraSchema.FEEDS;
            insertFeed = write(
                    s,
                    "INSERT INTO " + feeds + " (member, shareid, sharer, rid, type, body, doc) "
                            + "VALUES (?, ?, ?, ?, ?, ?, ?)");
            deleteFeed = write(s, "DELETE FROM " + feeds + " WHERE member = ? AND shareid IN ?");
            feed = read(
                    s,
                    "SELECT shareid, sharer, rid, type, body, doc FROM " + feeds + " WHERE member = ?"
                            + (c.feed().kind() == FeedDesign.Kind.SORTED_PUSH ? " LIMIT ?" : ""));
        } else {
            insertFeed = null;
            deleteFeed = null;
            feed = null;
        }
        loadMember = write(
                s,
                "UPDATE " + members + " SET attrs = ?, pic = ?, tpic = ?, friends = friends + ?, "
                        + "pending = pending + ?, pages = pages + ?" + (report ? "" : ", resources = ?")
                        + " WHERE userid = ?");
        loadResource = write(
                s,
                "INSERT INTO " + ks + CassandraSchema.RESOURCES + " (walluserid, rid, creatorid, "
                        + "type, body, doc) VALUES (?, ?, ?, ?, ?, ?)");
        loadPage = write(
                s,
                "UPDATE " + ks + CassandraSchema.PAGES + " SET name = ?, followers = followers + ? "
                        + "WHERE pageid = ?");
    }

    private PreparedStatement read(CqlSession s, String cql) {
        return s.prepare(
                SimpleStatement.newInstance(cql).setConsistencyLevel(read).setIdempotent(true));
    }

    private PreparedStatement write(CqlSession s, String cql) {
        return s.prepare(
                SimpleStatement.newInstance(cql).setConsistencyLevel(write).setIdempotent(true));
    }
}
