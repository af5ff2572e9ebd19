package org.bgbench.store.relational;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.locks.Lock;
import org.bgbench.store.CommentList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;

/**
 * The actions on the Basic design through one connection, every statement prepared once when the session opens.
 * Single-row writes run in autocommit; the two-row accept runs in a transaction.
 */
public class RelationalSession implements StoreSession {
    private final Connection c;
    private final Lock writeLock;
    private final boolean twoRows;
    private final int attributes;
    private final PreparedStatement viewProfile;
    private final PreparedStatement viewOwnProfile;
    private final PreparedStatement listFriends;
    private final PreparedStatement viewFriendRequests;
    private final PreparedStatement invite;
    private final PreparedStatement accept;
    private final PreparedStatement acceptMirror;
    private final PreparedStatement reject;
    private final PreparedStatement thaw;
    private final PreparedStatement topResources;
    private final PreparedStatement comments;
    private final PreparedStatement postComment;
    private final PreparedStatement deleteComment;

    /**
     * @param c         a connection in autocommit mode, owned by the session from now on
     * @param writeLock held around every write when the engine admits one writer at a time; null otherwise
     */
    public RelationalSession(Connection c, RelationalSchema schema, Lock writeLock) {
        this.c = c;
        this.writeLock = writeLock;
        this.twoRows = schema.friendshipRows() == 2;
        this.attributes = schema.attributeCount();
        try {
            viewProfile = c.prepareStatement(schema.viewProfile);
            viewOwnProfile = c.prepareStatement(schema.viewOwnProfile);
            listFriends = c.prepareStatement(schema.listFriends);
            viewFriendRequests = c.prepareStatement(schema.viewFriendRequests);
            invite = c.prepareStatement(schema.invite);
            accept = c.prepareStatement(schema.accept);
            acceptMirror = twoRows ? c.prepareStatement(schema.acceptMirror) : null;
            reject = c.prepareStatement(schema.reject);
            thaw = c.prepareStatement(schema.thaw);
            topResources = c.prepareStatement(schema.topResources);
            comments = c.prepareStatement(schema.comments);
            postComment = c.prepareStatement(schema.postComment);
            deleteComment = c.prepareStatement(schema.deleteComment);
        } catch (SQLException e) {
            closeQuietly();
            throw new StoreException("cannot prepare the BG statements (is the BG schema loaded?): " + e.getMessage(), e);
        }
    }

    @Override
    public void viewProfile(int requester, int profile, ProfileView out) {
        boolean own = requester == profile;
        readProfile(own ? viewOwnProfile : viewProfile, profile, own, out);
    }

    /**
     * VP through {@code ps}, a statement of the schema's shape: the attributes, the image, the friend and resource
     * counts and, for one's own profile, the pending count. Designs that take the counts elsewhere pass their own.
     */
    protected final void readProfile(PreparedStatement ps, int profile, boolean own, ProfileView out) {
        out.clear();
        try {
            ps.setInt(1, profile);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new StoreException("VP: member " + profile + " not found");
                }
                int n = Math.min(attributes, out.attributes.length);
                for (int a = 0; a < n; a++) {
                    out.attributes[a] = rs.getString(a + 1);
                }
                int col = attributes + 1;
                out.profileImage = rs.getBytes(col);
                out.friendCount = rs.getInt(col + 1);
                out.resourceCount = rs.getInt(col + 2);
                if (own) {
                    out.pendingCount = rs.getInt(col + 3);
                }
                out.memberId = profile;
            }
        } catch (SQLException e) {
            throw failed("VP", e);
        }
    }

    @Override
    public void listFriends(int requester, int profile, MemberList out) {
        try {
            listFriends.setInt(1, profile);
            if (!twoRows) {
                listFriends.setInt(2, profile);
            }
            members(listFriends, out);
        } catch (SQLException e) {
            throw failed("LF", e);
        }
    }

    @Override
    public void viewFriendRequests(int member, MemberList out) {
        try {
            viewFriendRequests.setInt(1, member);
            members(viewFriendRequests, out);
        } catch (SQLException e) {
            throw failed("VFR", e);
        }
    }

    private void members(PreparedStatement ps, MemberList out) throws SQLException {
        out.clear();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                MemberList.Row row = out.add(rs.getInt(1));
                int n = Math.min(attributes, row.attributes.length);
                for (int a = 0; a < n; a++) {
                    row.attributes[a] = rs.getString(a + 2);
                }
                row.thumbnail = rs.getBytes(attributes + 2);
            }
        }
    }

    @Override
    public void inviteFriend(int inviter, int invitee) {
        try {
            invite.setInt(1, inviter);
            invite.setInt(2, invitee);
            update(invite, 1, "IF");
        } catch (SQLException e) {
            throw failed("IF", e);
        }
    }

    @Override
    public void acceptFriendRequest(int invitee, int inviter) {
        try {
            accept.setInt(1, inviter);
            accept.setInt(2, invitee);
            if (!twoRows) {
                update(accept, 1, "AFR");
                return;
            }
            acceptMirror.setInt(1, invitee);
            acceptMirror.setInt(2, inviter);
            lock();
            try {
                c.setAutoCommit(false);
                try {
                    expect(accept.executeUpdate(), 1, "AFR");
                    expect(acceptMirror.executeUpdate(), 1, "AFR");
                    c.commit();
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly();
                    throw e;
                } finally {
                    c.setAutoCommit(true);
                }
            } finally {
                unlock();
            }
        } catch (SQLException e) {
            throw failed("AFR", e);
        }
    }

    @Override
    public void rejectFriendRequest(int invitee, int inviter) {
        try {
            reject.setInt(1, inviter);
            reject.setInt(2, invitee);
            update(reject, 1, "RFR");
        } catch (SQLException e) {
            throw failed("RFR", e);
        }
    }

    @Override
    public void thawFriendship(int member, int friend) {
        try {
            thaw.setInt(1, member);
            thaw.setInt(2, friend);
            thaw.setInt(3, friend);
            thaw.setInt(4, member);
            update(thaw, twoRows ? 2 : 1, "TF");
        } catch (SQLException e) {
            throw failed("TF", e);
        }
    }

    @Override
    public void viewTopKResources(int requester, int profile, int k, ResourceList out) {
        out.clear();
        try {
            topResources.setInt(1, profile);
            topResources.setInt(2, k);
            try (ResultSet rs = topResources.executeQuery()) {
                while (rs.next()) {
                    ResourceList.Row row = out.add(rs.getLong(1));
                    row.creatorId = rs.getInt(2);
                    row.wallUserId = rs.getInt(3);
                    row.type = rs.getString(4);
                    row.body = rs.getString(5);
                    row.doc = rs.getString(6);
                }
            }
        } catch (SQLException e) {
            throw failed("VTR", e);
        }
    }

    @Override
    public void viewCommentsOnResource(int requester, int owner, long resource, CommentList out) {
        out.clear();
        try {
            comments.setLong(1, resource);
            try (ResultSet rs = comments.executeQuery()) {
                while (rs.next()) {
                    CommentList.Row row = out.add(rs.getLong(1));
                    row.creatorId = rs.getInt(2);
                    row.resourceId = rs.getLong(3);
                    row.modifierId = rs.getInt(4);
                    row.timestampMs = rs.getLong(5);
                    row.type = rs.getString(6);
                    row.content = rs.getString(7);
                }
            }
        } catch (SQLException e) {
            throw failed("VCR", e);
        }
    }

    @Override
    public void postCommentOnResource(int commenter, int owner, long resource, long commentId, long timestampMs,
                                      String content) {
        try {
            postComment.setLong(1, commentId);
            postComment.setInt(2, owner);
            postComment.setLong(3, resource);
            postComment.setInt(4, commenter);
            postComment.setLong(5, timestampMs);
            postComment.setString(6, content);
            update(postComment, 1, "PCR");
        } catch (SQLException e) {
            throw failed("PCR", e);
        }
    }

    @Override
    public void deleteCommentFromResource(int owner, long resource, long commentId) {
        try {
            deleteComment.setLong(1, commentId);
            deleteComment.setLong(2, resource);
            update(deleteComment, 1, "DCR");
        } catch (SQLException e) {
            throw failed("DCR", e);
        }
    }

    private void update(PreparedStatement ps, int rows, String action) throws SQLException {
        lock();
        try {
            expect(ps.executeUpdate(), rows, action);
        } finally {
            unlock();
        }
    }

    /** A write that changed another number of rows met a state it was not valid for; BG counts it as an error. */
    private static void expect(int changed, int rows, String action) {
        if (changed != rows) {
            throw new StoreException(action + " changed " + changed + " rows, expected " + rows
                    + " (the store does not hold the state the action was chosen for)");
        }
    }

    private void lock() {
        if (writeLock != null) {
            writeLock.lock();
        }
    }

    private void unlock() {
        if (writeLock != null) {
            writeLock.unlock();
        }
    }

    private void rollbackQuietly() {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // The original failure is what the caller needs to see.
        }
    }

    private static StoreException failed(String action, SQLException e) {
        return new StoreException(action + " failed: " + e.getMessage(), e);
    }

    private void closeQuietly() {
        try {
            c.close();
        } catch (SQLException ignored) {
            // Closing after a failure; nothing left to report.
        }
    }

    @Override
    public void close() {
        try {
            // Closing the connection releases its statements; a pooled connection closes them on return.
            c.close();
        } catch (SQLException e) {
            throw new StoreException("closing the session's connection failed: " + e.getMessage(), e);
        }
    }
}
