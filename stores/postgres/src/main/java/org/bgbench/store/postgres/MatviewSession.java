package org.bgbench.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import org.bgbench.model.Action;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreException;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.RelationalSession;

/**
 * A session of the materialized-view design ({@link CountsView}): View Profile takes the counts from the view; every
 * other action is the Basic design's. With synchronous refresh, the writes that change a count (IF, AFR, RFR, TF)
 * refresh the view <em>inside their own transaction</em>: the write, the refresh lock and the refresh commit together,
 * so a read that starts after the write returned sees the new counts, a read during it sees the old tables and old
 * counts, and a failed refresh rolls the write back (BG counts an error and its state stays right).
 */
final class MatviewSession extends RelationalSession {
    private final Connection c;
    private final boolean sync;
    private final PreparedStatement viewProfile;
    private final PreparedStatement viewOwnProfile;
    private final Statement refresh;

    /** A write run inside the refreshing transaction. */
    @FunctionalInterface
    private interface Write {
        void run() throws SQLException;
    }

    /**
     * @param c      a connection in autocommit mode, owned by the session from now on
     * @param read   a read replica's connection for the routed read actions (VP reads the replica's copy of the
     *               view), owned by the session from now on; null for none
     * @param routed the read actions prepared on {@code read}
     * @param sync   whether writes refresh the view before they return
     */
    MatviewSession(Connection c, Connection read, Set<Action> routed, RelationalSchema schema, boolean sync) {
        super(c, read, routed, schema, null);
        this.c = c;
        this.sync = sync;
        try {
            viewProfile = connectionFor(Action.VP).prepareStatement(CountsView.viewProfile(schema, false));
            viewOwnProfile = connectionFor(Action.VP).prepareStatement(CountsView.viewProfile(schema, true));
            refresh = sync ? c.createStatement() : null;
        } catch (SQLException e) {
            try {
                close();
            } catch (RuntimeException ignored) {
                // Reporting the first failure matters more.
            }
            throw new StoreException(
                    "cannot prepare the BG statements of the materialized-view design (is the BG " + "schema loaded?): "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public void viewProfile(int requester, int profile, ProfileView out) {
        boolean own = requester == profile;
        readProfile(own ? viewOwnProfile : viewProfile, profile, own, out);
    }

    @Override
    public void inviteFriend(int inviter, int invitee) {
        if (sync) {
            refreshing("IF", () -> super.inviteFriend(inviter, invitee));
        } else {
            super.inviteFriend(inviter, invitee);
        }
    }

    @Override
    public void acceptFriendRequest(int invitee, int inviter) {
        // The Basic design's multi-statement writes (two-row accept, push feed rows) join the refreshing transaction.
        if (sync) {
            refreshing("AFR", () -> super.acceptFriendRequest(invitee, inviter));
        } else {
            super.acceptFriendRequest(invitee, inviter);
        }
    }

    @Override
    public void rejectFriendRequest(int invitee, int inviter) {
        if (sync) {
            refreshing("RFR", () -> super.rejectFriendRequest(invitee, inviter));
        } else {
            super.rejectFriendRequest(invitee, inviter);
        }
    }

    @Override
    public void thawFriendship(int member, int friend) {
        if (sync) {
            refreshing("TF", () -> super.thawFriendship(member, friend));
        } else {
            super.thawFriendship(member, friend);
        }
    }

    /** Runs {@code write}, then the refresh, in one transaction (see the class comment). */
    private void refreshing(String action, Write write) {
        try {
            c.setAutoCommit(false);
            try {
                write.run();
                refresh.execute(CountsView.LOCK);
                refresh.execute(CountsView.REFRESH);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                try {
                    c.rollback();
                } catch (SQLException ignored) {
                    // The original failure is what the caller needs to see.
                }
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreException(
                    action + " failed (refreshing " + CountsView.NAME + " in its transaction): " + e.getMessage(), e);
        }
    }
}
