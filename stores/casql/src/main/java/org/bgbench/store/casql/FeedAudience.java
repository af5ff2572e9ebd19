package org.bgbench.store.casql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import org.bgbench.store.StoreException;
import org.postgresql.Driver;

/**
 * Who may see a public share, read from PostgreSQL after the share committed: the sharer's current friends (a member)
 * or followers (a page), as member ids, so that Share Resource deletes exactly their cached feeds. The {@code postgres}
 * session answers no such question, so this asks the relational schema's tables itself ({@code friendship},
 * {@code pages}, {@code follows}, see the relational store) over a few connections of its own. Follows never change
 * during a run, so an account's followers (none for a member) are read once and kept until the contents are replaced.
 */
final class FeedAudience implements AutoCloseable {
    /** Connections at most: shares are a small part of a mix, and each query is one index lookup. */
    static final int CONNECTIONS = 4;

    private static final int[] NONE = new int[0];
    // Both halves whatever friendship.rows is: with two rows per friendship the second repeats the first
    // (deduplicated).
    private static final String FRIENDS = "SELECT inviteeid FROM friendship WHERE inviterid = ? AND status = 2"
            + " UNION SELECT inviterid FROM friendship WHERE inviteeid = ? AND status = 2";
    /** The same with {@code friendship.tables=2}: confirmed friendships in {@code friends}, no status (CIKM 2013 D.1). */
    private static final String FRIENDS_TWO_TABLES =
            "SELECT frdid2 FROM friends WHERE frdid1 = ?" + " UNION SELECT frdid1 FROM friends WHERE frdid2 = ?";
    // The pages test first: without it a member's lookup would scan follows where pull keeps no index by page.
    private static final String FOLLOWERS =
            "SELECT f.userid FROM follows f WHERE f.pageid = ?" + " AND EXISTS (SELECT 1 FROM pages WHERE pageid = ?)";

    private final String friends;
    private final String url;
    private final Properties props;
    private final ConcurrentHashMap<Integer, int[]> followers = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Connection> idle = new ConcurrentLinkedQueue<>();
    private final Semaphore slots = new Semaphore(CONNECTIONS);

    FeedAudience(String url, String user, String password, Duration timeout) {
        this(url, user, password, timeout, false);
    }

    /** @param twoTables whether friendships are in {@code friends} ({@code friendship.tables=2}) */
    FeedAudience(String url, String user, String password, Duration timeout, boolean twoTables) {
        this.friends = twoTables ? FRIENDS_TWO_TABLES : FRIENDS;
        this.url = url;
        props = new Properties();
        props.setProperty("user", user);
        if (password != null) {
            props.setProperty("password", password);
        }
        props.setProperty("ApplicationName", "bg-casql-audience");
        String seconds = Long.toString(Math.max(1, (timeout.toMillis() + 999) / 1000));
        props.setProperty("connectTimeout", seconds);
        props.setProperty("loginTimeout", seconds);
        props.setProperty("socketTimeout", Long.toString(Long.parseLong(seconds) + 1));
    }

    /** Member ids whose feeds may show a public share of {@code sharer} (an account id), ascending. */
    int[] of(int sharer) {
        try {
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting to read who sees a share", e);
        }
        Connection c = null;
        try {
            c = idle.poll();
            if (c == null) {
                c = new Driver().connect(url, props);
            }
            int[] pageFollowers = followers.get(sharer);
            if (pageFollowers == null) {
                pageFollowers = query(c, FOLLOWERS, sharer);
                followers.put(sharer, pageFollowers.length == 0 ? NONE : pageFollowers);
            }
            // A page has no friends and a member no followers.
            int[] audience = pageFollowers.length > 0 ? pageFollowers : query(c, friends, sharer);
            idle.add(c);
            c = null;
            return audience;
        } catch (SQLException e) {
            throw new StoreException("reading who sees a share of " + sharer + " failed: " + e.getMessage(), e);
        } finally {
            if (c != null) {
                closeQuietly(c);
            }
            slots.release();
        }
    }

    private static int[] query(Connection c, String sql, int account) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, account);
            ps.setInt(2, account);
            int[] ids = new int[16];
            int n = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (n == ids.length) {
                        ids = Arrays.copyOf(ids, n * 2);
                    }
                    ids[n++] = rs.getInt(1);
                }
            }
            int[] out = Arrays.copyOf(ids, n);
            Arrays.sort(out);
            return out;
        }
    }

    /** The database's contents were replaced (schema, load, image): followers may differ. */
    void forget() {
        followers.clear();
    }

    /**
     * Closes the idle connections: an image copies the database at file level (as a template), which PostgreSQL
     * refuses while other sessions are connected to it.
     */
    void closeIdle() {
        for (Connection c; (c = idle.poll()) != null; ) {
            closeQuietly(c);
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // Nothing to keep from a connection being dropped.
        }
    }

    @Override
    public void close() {
        closeIdle();
    }
}
