package org.bgbench.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;

/**
 * A session of the postgres store with its timeouts ({@code postgres.timeout}), around the design's own session
 * ({@link org.bgbench.store.relational.RelationalSession} or {@link MatviewSession}). Its connection, borrowed from the
 * pool, gets {@code statement_timeout} (the server cancels a statement that runs longer; the connection stays usable)
 * and a read timeout one second longer (pgJDBC's socket timeout: a server that does not answer at all, frozen or cut
 * off, fails the call and pgJDBC closes the connection). Both are the session's alone: on return to the pool the
 * statement timeout is reset and Hikari restores the read timeout, so loads and index builds on pooled connections
 * never inherit them. With read replicas ({@code postgres.read-urls}) the session also borrows a connection from its
 * replica's pool, with the same two timeouts, for the routed read actions.
 *
 * <p>A connection the driver closed (the read timed out, the server went away) is not kept: Hikari evicts it from the
 * pool, and this session borrows another at its next action, so one timeout costs one error, not every action after
 * it. Not thread-safe, like every session.
 */
final class PostgresSession implements StoreSession {
    private static final Executor DIRECT = Runnable::run;
    /** How long closing waits for the server to reset the statement timeout before giving the connection up. */
    private static final int RESET_MILLIS = 1_000;

    private final Supplier<Connection> connections;
    /** Borrows a connection to this session's read replica; null without replicas. */
    private final Supplier<Connection> reads;

    private final BiFunction<Connection, Connection, StoreSession> design;
    private final long statementMillis;
    private final int readMillis;
    private Connection c;
    /** The read replica's connection; null without replicas. */
    private Connection r;

    private StoreSession s;

    /**
     * @param connections borrows a connection (fails with a {@link StoreException} saying why)
     * @param reads       borrows a connection to the session's read replica (fails likewise, naming its URL); null
     *                    for none
     * @param design      the design's session on a primary and a replica connection (null without replicas), which
     *                    it owns from then on
     */
    PostgresSession(
            Supplier<Connection> connections,
            Supplier<Connection> reads,
            BiFunction<Connection, Connection, StoreSession> design,
            long statementMillis,
            int readMillis) {
        this.connections = connections;
        this.reads = reads;
        this.design = design;
        this.statementMillis = statementMillis;
        this.readMillis = readMillis;
        open();
    }

    private void open() {
        Connection conn = connections.get();
        Connection read = null;
        if (reads != null) {
            try {
                read = reads.get();
            } catch (RuntimeException e) {
                try {
                    conn.close();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }
        // The design's session first: if it cannot prepare its statements it closes the connections, which then go
        // back to the pool without this session's timeouts.
        StoreSession created = design.apply(conn, read);
        try {
            for (Connection x : read == null ? List.of(conn) : List.of(conn, read)) {
                x.setNetworkTimeout(DIRECT, readMillis);
                try (Statement st = x.createStatement()) {
                    st.execute("SET statement_timeout = " + statementMillis);
                }
            }
        } catch (SQLException e) {
            try {
                created.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new StoreException("cannot set the session's timeouts on PostgreSQL: " + e.getMessage(), e);
        }
        s = created;
        c = conn;
        r = read;
    }

    /** The design's session, on a new connection if the last one was lost. */
    private StoreSession session() {
        if (s == null) {
            open();
        }
        return s;
    }

    /** After a failed action: drops a connection the driver closed; the next action borrows another. */
    private RuntimeException failed(RuntimeException e) {
        if (s != null && lost()) {
            StoreSession old = s;
            s = null;
            c = null;
            r = null;
            try {
                old.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
        }
        return e;
    }

    private boolean lost() {
        return lost(c) || (r != null && lost(r));
    }

    private static boolean lost(Connection x) {
        try {
            return x.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }

    @Override
    public void viewProfile(int requester, int profile, ProfileView out) {
        try {
            session().viewProfile(requester, profile, out);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void listFriends(int requester, int profile, MemberList out) {
        try {
            session().listFriends(requester, profile, out);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void viewFriendRequests(int member, MemberList out) {
        try {
            session().viewFriendRequests(member, out);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void inviteFriend(int inviter, int invitee) {
        try {
            session().inviteFriend(inviter, invitee);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void acceptFriendRequest(int invitee, int inviter) {
        try {
            session().acceptFriendRequest(invitee, inviter);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void rejectFriendRequest(int invitee, int inviter) {
        try {
            session().rejectFriendRequest(invitee, inviter);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void thawFriendship(int member, int friend) {
        try {
            session().thawFriendship(member, friend);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void viewTopKResources(int requester, int profile, int k, ResourceList out) {
        try {
            session().viewTopKResources(requester, profile, k, out);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void viewCommentsOnResource(int requester, int owner, long resource, CommentList out) {
        try {
            session().viewCommentsOnResource(requester, owner, resource, out);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void postCommentOnResource(
            int commenter, int owner, long resource, long commentId, long timestampMs, String content) {
        try {
            session().postCommentOnResource(commenter, owner, resource, commentId, timestampMs, content);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void deleteCommentFromResource(int owner, long resource, long commentId) {
        try {
            session().deleteCommentFromResource(owner, resource, commentId);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void shareResource(int sharer, long resource, long shareId, int[] recipients) {
        try {
            session().shareResource(sharer, resource, shareId, recipients);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public void viewNewsFeed(int member, int k, FeedList out) {
        try {
            session().viewNewsFeed(member, k, out);
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    /**
     * Resets the statement timeout (waiting at most a second: a server that does not answer loses the connection
     * instead, and Hikari evicts it) and returns the connection to the pool.
     */
    @Override
    public void close() {
        if (s == null) {
            return;
        }
        try {
            for (Connection x : r == null ? List.of(c) : List.of(c, r)) {
                reset(x);
            }
        } finally {
            StoreSession old = s;
            s = null;
            c = null;
            r = null;
            old.close();
        }
    }

    private static void reset(Connection x) {
        try {
            if (!lost(x)) {
                x.setNetworkTimeout(DIRECT, RESET_MILLIS);
                try (Statement st = x.createStatement()) {
                    st.execute("RESET statement_timeout");
                }
            }
        } catch (SQLException e) {
            // The connection is broken: the pool evicts it when the session closes it below.
        }
    }
}
