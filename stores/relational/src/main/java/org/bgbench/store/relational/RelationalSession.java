package org.bgbench.store.relational;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import org.bgbench.model.Action;
import org.bgbench.store.Attributes;
import org.bgbench.store.CommentList;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;

/**
 * The actions on the Basic design through one connection, every statement prepared once when the session opens.
 * Single-row writes run in autocommit; the two-row accept, the two-table accept (delete from pending, insert into
 * friends), Share Resource, with a push feed AFR and TF, and with counts as attributes every friendship write (the
 * members' counts change with the friendship rows) run in a transaction (or in the caller's, when a subclass already
 * opened one). With a read connection (a read replica), the statements of the routed read actions are prepared on it
 * instead; every write, and every statement of a write's transaction, stays on the primary connection.
 */
public class RelationalSession implements StoreSession {
    private final Connection c;
    /** A read replica's connection for the routed read actions; null when every read uses {@code c}. */
    private final Connection read;

    private final Set<Action> routed;
    private final boolean twoRows;
    /** {@code counts=attributes}: the friendship writes keep members' counts in their transaction. */
    private final boolean countAttributes;
    /** The friendship writes the design does in one statement in autocommit ({@code oneStatementWrite}). */
    private final boolean oneStatementIf;

    private final boolean oneStatementAfr;
    private final boolean oneStatementRfr;
    private final boolean oneStatementTf;
    /** {@code images=fs}: where VP reads profile images from; null when they are inline. */
    private final ImageFiles images;

    private final int attributes;
    /** Attributes read as UTF-8 bytes ({@link SqlDialect#textAsUtf8Bytes()}), decoded only if someone reads them. */
    private final boolean utf8Text;

    private final FeedDesign feed;
    /** Share Resource, View News Feed and the feed rows the friendship writes change. */
    private final SessionFeed feeds;
    /** The write lock, transactions and the checks of a write's row count. */
    private final SessionWrites writes;

    private final PreparedStatement viewProfile;
    private final PreparedStatement viewOwnProfile;
    private final PreparedStatement listFriends;
    private final PreparedStatement viewFriendRequests;
    private final PreparedStatement invite;
    private final PreparedStatement accept;
    private final PreparedStatement acceptInsert;
    private final PreparedStatement adjustCounts;
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
        this(c, null, Set.of(), schema, writeLock);
    }

    /**
     * @param c         a connection to the primary in autocommit mode, owned by the session from now on
     * @param read      a connection to a read replica in autocommit mode, owned by the session from now on; null for
     *                  none (every read on {@code c})
     * @param routed    the read actions whose statements are prepared on {@code read}
     * @param writeLock held around every write when the engine admits one writer at a time; null otherwise
     */
    public RelationalSession(
            Connection c, Connection read, Set<Action> routed, RelationalSchema schema, Lock writeLock) {
        this.c = c;
        this.read = read;
        this.routed = read == null ? Set.of() : Set.copyOf(routed);
        this.writes = new SessionWrites(c, writeLock);
        this.twoRows = schema.friendshipRows() == 2;
        this.countAttributes = schema.physical().countAttributes();
        this.oneStatementIf = schema.oneStatementWrite(Action.IF) != null;
        this.oneStatementAfr = schema.oneStatementWrite(Action.AFR) != null;
        this.oneStatementRfr = schema.oneStatementWrite(Action.RFR) != null;
        this.oneStatementTf = schema.oneStatementWrite(Action.TF) != null;
        this.images = schema.physical().imagesInFiles()
                ? new ImageFiles(schema.physical().imagesDir())
                : null;
        this.attributes = schema.attributeCount();
        this.utf8Text = schema.utf8Text;
        this.feed = schema.feed();
        SessionFeed prepared = null;
        try {
            viewProfile = connectionFor(Action.VP).prepareStatement(schema.viewProfile);
            viewOwnProfile = connectionFor(Action.VP).prepareStatement(schema.viewOwnProfile);
            listFriends = connectionFor(Action.LF).prepareStatement(schema.listFriends);
            viewFriendRequests = connectionFor(Action.VFR).prepareStatement(schema.viewFriendRequests);
            invite = c.prepareStatement(schema.invite);
            accept = c.prepareStatement(schema.accept);
            acceptInsert = schema.acceptInsert == null ? null : c.prepareStatement(schema.acceptInsert);
            acceptMirror = twoRows ? c.prepareStatement(schema.acceptMirror) : null;
            adjustCounts = countAttributes ? c.prepareStatement(schema.adjustCounts) : null;
            reject = c.prepareStatement(schema.reject);
            thaw = c.prepareStatement(schema.thaw);
            topResources = connectionFor(Action.VTR).prepareStatement(schema.topResources);
            comments = connectionFor(Action.VCR).prepareStatement(schema.comments);
            postComment = c.prepareStatement(schema.postComment);
            deleteComment = c.prepareStatement(schema.deleteComment);
            prepared = new SessionFeed(c, connectionFor(Action.VNF), schema, writeLock == null);
        } catch (SQLException e) {
            closeQuietly();
            throw new StoreException(
                    "cannot prepare the BG statements (is the BG schema loaded?): " + e.getMessage(), e);
        }
        this.feeds = prepared;
    }

    /** The connection {@code action}'s statements are prepared on: the read replica's when it is routed there. */
    protected final Connection connectionFor(Action action) {
        return read != null && routed.contains(action) ? read : c;
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
                int n = Math.min(attributes, out.attributes.count());
                for (int a = 0; a < n; a++) {
                    text(rs, a + 1, out.attributes, a);
                }
                int col = attributes + 1;
                if (images == null) {
                    out.profileImage = rs.getBytes(col);
                } else {
                    // images=fs: the row names the file; a graph without images has no file and a null path.
                    String path = rs.getString(col);
                    out.profileImage = path == null ? null : images.read(path);
                }
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

    /** Text column {@code col} into attribute {@code a}: its bytes when the driver hands them over as UTF-8. */
    private void text(ResultSet rs, int col, Attributes out, int a) throws SQLException {
        if (utf8Text) {
            out.setUtf8(a, rs.getBytes(col));
        } else {
            out.set(a, rs.getString(col));
        }
    }

    private void members(PreparedStatement ps, MemberList out) throws SQLException {
        out.clear();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                MemberList.Row row = out.add(rs.getInt(1));
                int n = Math.min(attributes, row.attributes.count());
                for (int a = 0; a < n; a++) {
                    text(rs, a + 2, row.attributes, a);
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
            if (oneStatementIf) {
                update(invite, 1, "IF");
                return;
            }
        } catch (SQLException e) {
            throw failed("IF", e);
        }
        transaction("IF", () -> {
            adjust(invitee, 0, 1, "IF");
            expect(invite.executeUpdate(), 1, "IF");
        });
    }

    /**
     * {@code counts=attributes} (CIKM 2013 E.1, Manual): adds to member {@code id}'s friend and pending counts, in the
     * caller's transaction. Counts are changed before the friendship rows, members in id order, so every write locks
     * member rows before friendship rows, in one order (push designs lock the same member rows first too).
     */
    private void adjust(int id, int friends, int pending, String action) throws SQLException {
        adjustCounts.setInt(1, friends);
        adjustCounts.setInt(2, pending);
        adjustCounts.setInt(3, id);
        expect(adjustCounts.executeUpdate(), 1, action);
    }

    @Override
    public void acceptFriendRequest(int invitee, int inviter) {
        try {
            accept.setInt(1, inviter);
            accept.setInt(2, invitee);
            if (oneStatementAfr) {
                update(accept, 1, "AFR");
                return;
            }
        } catch (SQLException e) {
            throw failed("AFR", e);
        }
        transaction("AFR", () -> {
            feeds.lockAccounts(invitee, inviter);
            if (countAttributes) {
                adjust(Math.min(invitee, inviter), 1, invitee < inviter ? -1 : 0, "AFR");
                adjust(Math.max(invitee, inviter), 1, invitee > inviter ? -1 : 0, "AFR");
            }
            expect(accept.executeUpdate(), 1, "AFR");
            if (acceptInsert != null) {
                // friendship.tables=2 (CIKM 2013 table 3): the invitation left pending, the friendship enters friends.
                acceptInsert.setInt(1, inviter);
                acceptInsert.setInt(2, invitee);
                expect(acceptInsert.executeUpdate(), 1, "AFR");
            }
            if (twoRows) {
                acceptMirror.setInt(1, invitee);
                acceptMirror.setInt(2, inviter);
                expect(acceptMirror.executeUpdate(), 1, "AFR");
            }
            if (feed.push()) {
                // Each now sees the other's past shares that are public or name her (dissertation 8.4.2).
                feeds.pushPast(invitee, inviter);
                feeds.pushPast(inviter, invitee);
            }
        });
    }

    @Override
    public void rejectFriendRequest(int invitee, int inviter) {
        try {
            reject.setInt(1, inviter);
            reject.setInt(2, invitee);
            if (oneStatementRfr) {
                update(reject, 1, "RFR");
                return;
            }
        } catch (SQLException e) {
            throw failed("RFR", e);
        }
        transaction("RFR", () -> {
            adjust(invitee, 0, -1, "RFR");
            expect(reject.executeUpdate(), 1, "RFR");
        });
    }

    @Override
    public void thawFriendship(int member, int friend) {
        try {
            thaw.setInt(1, member);
            thaw.setInt(2, friend);
            thaw.setInt(3, friend);
            thaw.setInt(4, member);
            if (oneStatementTf) {
                update(thaw, twoRows ? 2 : 1, "TF");
                return;
            }
        } catch (SQLException e) {
            throw failed("TF", e);
        }
        transaction("TF", () -> {
            feeds.lockAccounts(member, friend);
            if (countAttributes) {
                adjust(Math.min(member, friend), -1, 0, "TF");
                adjust(Math.max(member, friend), -1, 0, "TF");
            }
            expect(thaw.executeUpdate(), twoRows ? 2 : 1, "TF");
            if (feed.push()) {
                // Neither sees the other's shares any more.
                feeds.dropPast(member, friend);
                feeds.dropPast(friend, member);
            }
        });
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
    public void postCommentOnResource(
            int commenter, int owner, long resource, long commentId, long timestampMs, String content) {
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

    @Override
    public void shareResource(int sharer, long resource, long shareId, int[] recipients) {
        int[] to = recipients == null ? null : SessionFeed.distinct(recipients);
        transaction("SR", () -> feeds.share(sharer, resource, shareId, to));
    }

    @Override
    public void viewNewsFeed(int member, int k, FeedList out) {
        out.clear();
        if (k <= 0) {
            return;
        }
        try {
            feeds.viewNewsFeed(member, k, out);
        } catch (SQLException e) {
            throw SessionWrites.failed("VNF", e);
        }
    }

    /** A unit of work run in one transaction. */
    @FunctionalInterface
    protected interface Work {
        void run() throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction under the write lock, rolled back if it fails; inside the caller's
     * transaction when one is open (autocommit off), which then commits or rolls back.
     */
    protected final void transaction(String action, Work work) {
        writes.transaction(action, work);
    }

    private void update(PreparedStatement ps, int rows, String action) throws SQLException {
        writes.update(ps, rows, action);
    }

    private static void expect(int changed, int rows, String action) {
        SessionWrites.expect(changed, rows, action);
    }

    private static StoreException failed(String action, SQLException e) {
        return SessionWrites.failed(action, e);
    }

    private void closeQuietly() {
        try {
            c.close();
        } catch (SQLException ignored) {
            // Closing after a failure; nothing left to report.
        }
        if (read != null) {
            try {
                read.close();
            } catch (SQLException ignored) {
                // Closing after a failure; nothing left to report.
            }
        }
    }

    @Override
    public void close() {
        try {
            // Closing the connection releases its statements; a pooled connection closes them on return.
            c.close();
        } catch (SQLException e) {
            throw new StoreException("closing the session's connection failed: " + e.getMessage(), e);
        } finally {
            if (read != null) {
                try {
                    read.close();
                } catch (SQLException ignored) {
                    // The replica's connection is only read from: nothing of the run is lost with it.
                }
            }
        }
    }
}
