package org.bgbench.store.relational;

import org.bgbench.store.FeedDesign;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import org.bgbench.model.Action;
import org.bgbench.store.Attributes;
import org.bgbench.store.CommentList;
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
    private final Lock writeLock;
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
    private final int friendsParams;
    private final int pullLimits;
    private final PreparedStatement share;
    private final PreparedStatement shareRecipient;
    /** Row lock on an account, ordering a push design's SR against AFR/TF of the sharer; null with one writer. */
    private final PreparedStatement lockAccount;
    private final PreparedStatement pullFeed;
    private final PreparedStatement fanOut;
    private final PreparedStatement pushPast;
    private final PreparedStatement dropPast;
    private final PreparedStatement pushFeed;
    private final PreparedStatement feedResource;
    private final PreparedStatement sortedFeed;
    /** Push's whole feed, sorted in the application: srid, rid, creatorid per row, then the content if copied. */
    private long[] feedIds = new long[64];
    private String[] feedText = new String[0];
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
    public RelationalSession(Connection c, Connection read, Set<Action> routed, RelationalSchema schema,
                             Lock writeLock) {
        this.c = c;
        this.read = read;
        this.routed = read == null ? Set.of() : Set.copyOf(routed);
        this.writeLock = writeLock;
        this.twoRows = schema.friendshipRows() == 2;
        this.countAttributes = schema.physical().countAttributes();
        this.oneStatementIf = schema.oneStatementWrite(Action.IF) != null;
        this.oneStatementAfr = schema.oneStatementWrite(Action.AFR) != null;
        this.oneStatementRfr = schema.oneStatementWrite(Action.RFR) != null;
        this.oneStatementTf = schema.oneStatementWrite(Action.TF) != null;
        this.images = schema.physical().imagesInFiles() ? new ImageFiles(schema.physical().imagesDir()) : null;
        this.attributes = schema.attributeCount();
        this.utf8Text = schema.utf8Text;
        this.feed = schema.feed();
        this.friendsParams = schema.friendsParams;
        this.pullLimits = schema.pullLimits;
        boolean push = feed.push();
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
            share = c.prepareStatement(schema.share);
            shareRecipient = c.prepareStatement(schema.shareRecipient);
            lockAccount = push && writeLock == null ? c.prepareStatement(schema.lockAccount) : null;
            pullFeed = push ? null : connectionFor(Action.VNF).prepareStatement(schema.pullFeed);
            fanOut = push ? c.prepareStatement(schema.fanOut) : null;
            pushPast = push ? c.prepareStatement(schema.pushPast) : null;
            dropPast = push ? c.prepareStatement(schema.dropPast) : null;
            pushFeed = feed.kind() == FeedDesign.Kind.PUSH
                    ? connectionFor(Action.VNF).prepareStatement(schema.pushFeed) : null;
            feedResource = feed.kind() == FeedDesign.Kind.PUSH && !feed.content()
                    ? connectionFor(Action.VNF).prepareStatement(schema.feedResource) : null;
            sortedFeed = feed.kind() == FeedDesign.Kind.SORTED_PUSH
                    ? connectionFor(Action.VNF).prepareStatement(schema.sortedFeed) : null;
        } catch (SQLException e) {
            closeQuietly();
            throw new StoreException("cannot prepare the BG statements (is the BG schema loaded?): " + e.getMessage(), e);
        }
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
            lockAccounts(invitee, inviter);
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
                pushPast(invitee, inviter);
                pushPast(inviter, invitee);
            }
        });
    }

    private void pushPast(int viewer, int sharer) throws SQLException {
        pushPast.setInt(1, viewer);
        pushPast.setInt(2, sharer);
        pushPast.setInt(3, viewer);
        pushPast.executeUpdate();
    }

    private void dropPast(int viewer, int sharer) throws SQLException {
        dropPast.setInt(1, viewer);
        dropPast.setInt(2, sharer);
        dropPast.executeUpdate();
    }

    /**
     * With a push feed, locks the rows of both members in id order before a friendship changes: an SR by either
     * locks its sharer first, so fan-out and catch-up cannot both miss a share committed between them.
     */
    private void lockAccounts(int a, int b) throws SQLException {
        if (lockAccount == null) {
            return;
        }
        lockAccount(Math.min(a, b));
        lockAccount(Math.max(a, b));
    }

    private void lockAccount(int id) throws SQLException {
        lockAccount.setInt(1, id);
        try (ResultSet rs = lockAccount.executeQuery()) {
            while (rs.next()) {
                // Reading the row takes the lock; nothing else to do.
            }
        }
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
            lockAccounts(member, friend);
            if (countAttributes) {
                adjust(Math.min(member, friend), -1, 0, "TF");
                adjust(Math.max(member, friend), -1, 0, "TF");
            }
            expect(thaw.executeUpdate(), twoRows ? 2 : 1, "TF");
            if (feed.push()) {
                // Neither sees the other's shares any more.
                dropPast(member, friend);
                dropPast(friend, member);
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

    @Override
    public void shareResource(int sharer, long resource, long shareId, int[] recipients) {
        int[] to = recipients == null ? null : distinct(recipients);
        transaction("SR", () -> {
            if (feed.push() && lockAccount != null) {
                lockAccount(sharer);
            }
            share.setLong(1, shareId);
            share.setInt(2, to == null ? 1 : 0);
            share.setLong(3, resource);
            share.setInt(4, sharer);
            expect(share.executeUpdate(), 1, "SR");
            if (to != null && to.length > 0) {
                for (int member : to) {
                    shareRecipient.setLong(1, shareId);
                    shareRecipient.setInt(2, member);
                    shareRecipient.addBatch();
                }
                shareRecipient.executeBatch();
            }
            if (feed.push()) {
                // One feed row per friend or follower who may see it, in the SR's transaction (synchronous push).
                int p = 1;
                for (int i = 0; i < friendsParams; i++) {
                    fanOut.setInt(p++, sharer);
                }
                fanOut.setInt(p++, sharer);
                fanOut.setLong(p, shareId);
                fanOut.executeUpdate();
            }
        });
    }

    private static int[] distinct(int[] ids) {
        int[] sorted = ids.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                sorted[n++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, n);
    }

    @Override
    public void viewNewsFeed(int member, int k, FeedList out) {
        out.clear();
        if (k <= 0) {
            return;
        }
        try {
            switch (feed.kind()) {
                case PULL -> {
                    int p = 1;
                    for (int i = 0; i < friendsParams + 2; i++) {
                        pullFeed.setInt(p++, member);
                    }
                    for (int i = 0; i < pullLimits; i++) {
                        pullFeed.setInt(p++, k);
                    }
                    feedRows(pullFeed, out);
                }
                case SORTED_PUSH -> {
                    sortedFeed.setInt(1, member);
                    sortedFeed.setInt(2, k);
                    feedRows(sortedFeed, out);
                }
                case PUSH -> wholeFeed(member, k, out);
            }
        } catch (SQLException e) {
            throw failed("VNF", e);
        }
    }

    /** Rows of srid, rid, creatorid, type, body, doc, already in feed order. */
    private static void feedRows(PreparedStatement ps, FeedList out) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                FeedList.Row row = out.add(rs.getLong(1));
                row.resourceId = rs.getLong(2);
                row.sharerId = rs.getInt(3);
                row.type = rs.getString(4);
                row.body = rs.getString(5);
                row.doc = rs.getString(6);
            }
        }
    }

    /**
     * Push as the dissertation's (8.4.2): the member's whole feed is read and sorted here, the top k kept; with
     * references, only those k resources are then read.
     */
    private void wholeFeed(int member, int k, FeedList out) throws SQLException {
        boolean content = feed.content();
        int n = 0;
        pushFeed.setInt(1, member);
        try (ResultSet rs = pushFeed.executeQuery()) {
            while (rs.next()) {
                if (3 * n + 3 > feedIds.length) {
                    feedIds = Arrays.copyOf(feedIds, feedIds.length * 2);
                }
                feedIds[3 * n] = rs.getLong(1);
                feedIds[3 * n + 1] = rs.getLong(2);
                feedIds[3 * n + 2] = rs.getInt(3);
                if (content) {
                    if (3 * n + 3 > feedText.length) {
                        feedText = Arrays.copyOf(feedText, Math.max(48, feedText.length * 2));
                    }
                    feedText[3 * n] = rs.getString(4);
                    feedText[3 * n + 1] = rs.getString(5);
                    feedText[3 * n + 2] = rs.getString(6);
                }
                n++;
            }
        }
        // Sort row indexes by share id, highest first; a feed holds a share at most once.
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        long[] ids = feedIds;
        Arrays.sort(order, (a, b) -> Long.compare(ids[3 * b], ids[3 * a]));
        int top = Math.min(k, n);
        for (int j = 0; j < top; j++) {
            int i = order[j];
            FeedList.Row row = out.add(ids[3 * i]);
            row.resourceId = ids[3 * i + 1];
            row.sharerId = (int) ids[3 * i + 2];
            if (content) {
                row.type = feedText[3 * i];
                row.body = feedText[3 * i + 1];
                row.doc = feedText[3 * i + 2];
            } else {
                feedResource.setLong(1, row.resourceId);
                try (ResultSet rs = feedResource.executeQuery()) {
                    if (rs.next()) {
                        row.type = rs.getString(1);
                        row.body = rs.getString(2);
                        row.doc = rs.getString(3);
                    }
                }
            }
        }
        if (content) {
            Arrays.fill(feedText, 0, 3 * n, null);
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
        lock();
        try {
            if (!c.getAutoCommit()) {
                work.run();
                return;
            }
            c.setAutoCommit(false);
            try {
                work.run();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failed(action, e);
        } finally {
            unlock();
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
        return new StoreException(action + " failed: " + org.bgbench.store.ErrorText.message(e), e);
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
