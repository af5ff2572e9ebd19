package org.bgbench.store.relational;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.FeedList;

/**
 * The feed's part of a {@link RelationalSession}: Share Resource's rows, View News Feed in the pull, push and sorted
 * push designs, and the feed rows a push design adds or drops when a friendship begins or ends. Its statements are
 * prepared once, VNF's on the connection its reads are routed to; the session runs the writes in its transactions.
 */
final class SessionFeed {
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

    /**
     * @param c        the primary's connection, for the writes
     * @param reads    the connection VNF's statements are prepared on
     * @param rowLocks whether a push design orders SR against AFR/TF by row locks (many writers at once)
     */
    SessionFeed(Connection c, Connection reads, RelationalSchema schema, boolean rowLocks) throws SQLException {
        this.feed = schema.feed();
        this.friendsParams = schema.friendsParams;
        this.pullLimits = schema.pullLimits;
        boolean push = feed.push();
        share = c.prepareStatement(schema.share);
        shareRecipient = c.prepareStatement(schema.shareRecipient);
        lockAccount = push && rowLocks ? c.prepareStatement(schema.lockAccount) : null;
        pullFeed = push ? null : reads.prepareStatement(schema.pullFeed);
        fanOut = push ? c.prepareStatement(schema.fanOut) : null;
        pushPast = push ? c.prepareStatement(schema.pushPast) : null;
        dropPast = push ? c.prepareStatement(schema.dropPast) : null;
        pushFeed = feed.kind() == FeedDesign.Kind.PUSH ? reads.prepareStatement(schema.pushFeed) : null;
        feedResource = feed.kind() == FeedDesign.Kind.PUSH && !feed.content()
                ? reads.prepareStatement(schema.feedResource)
                : null;
        sortedFeed = feed.kind() == FeedDesign.Kind.SORTED_PUSH ? reads.prepareStatement(schema.sortedFeed) : null;
    }

    /** Share Resource's rows, in the caller's transaction: the share, its recipients, a push design's feed rows. */
    void share(int sharer, long resource, long shareId, int[] to) throws SQLException {
        if (feed.push() && lockAccount != null) {
            lockAccount(sharer);
        }
        share.setLong(1, shareId);
        share.setInt(2, to == null ? 1 : 0);
        share.setLong(3, resource);
        share.setInt(4, sharer);
        SessionWrites.expect(share.executeUpdate(), 1, "SR");
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
    }

    /** {@code ids} without repeats, sorted. */
    static int[] distinct(int[] ids) {
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

    /** View News Feed's top {@code k} (at least 1) shares into {@code out}, which is empty. */
    void viewNewsFeed(int member, int k, FeedList out) throws SQLException {
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
    }

    void pushPast(int viewer, int sharer) throws SQLException {
        pushPast.setInt(1, viewer);
        pushPast.setInt(2, sharer);
        pushPast.setInt(3, viewer);
        pushPast.executeUpdate();
    }

    void dropPast(int viewer, int sharer) throws SQLException {
        dropPast.setInt(1, viewer);
        dropPast.setInt(2, sharer);
        dropPast.executeUpdate();
    }

    /**
     * With a push feed, locks the rows of both members in id order before a friendship changes: an SR by either
     * locks its sharer first, so fan-out and catch-up cannot both miss a share committed between them.
     */
    void lockAccounts(int a, int b) throws SQLException {
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
}
