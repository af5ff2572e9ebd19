package org.bgbench.store.hbase;

import static org.bgbench.store.hbase.HBaseSchema.A;
import static org.bgbench.store.hbase.HBaseSchema.F;
import static org.bgbench.store.hbase.HBaseSchema.M;
import static org.bgbench.store.hbase.HBaseSchema.P;
import static org.bgbench.store.hbase.HBaseSchema.R;
import static org.bgbench.store.hbase.HBaseSchema.S;
import static org.bgbench.store.hbase.HBaseSchema.T;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.store.CommentList;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;

/**
 * The actions as gets, puts, deletes and increments (scalability paper, section D.1 and appendix B). Nothing spans rows
 * atomically in HBase: an action that changes several rows (AFR, TF, PCR, DCR, and Manual's counts) changes them one
 * request after another, and BG's validation judges the windows that leaves (the README lists them).
 */
final class HBaseSession implements StoreSession {
    private static final String COMMENT_TYPE = "comment";
    private static final byte[] EMPTY = new byte[0];

    private final HBaseConfig config;
    private final boolean manual;
    private final boolean batched;
    private final FeedDesign feed;
    private final Durability durability;
    /** Account ids from here on are pages. */
    private final int firstPage;

    private final Table members;
    private final Table confirmed;
    private final Table pending;
    private final Table wall;
    private final Table resources;
    private final Table manipulations;
    private final Table pages;
    private final Table shares;
    private final Table feeds;
    private final PullFeed pullFeed;

    HBaseSession(HBaseStore store, int firstPage) {
        this.config = store.config();
        this.manual = config.manual();
        this.batched = config.fetch() == HBaseConfig.Fetch.BATCHED;
        this.feed = config.feed();
        this.durability = config.durability();
        this.firstPage = firstPage;
        this.members = store.open(HBaseSchema.MEMBERS);
        this.confirmed = store.open(HBaseSchema.CONFIRMED);
        this.pending = store.open(HBaseSchema.PENDING);
        this.wall = store.open(HBaseSchema.WALL);
        this.resources = store.open(HBaseSchema.RESOURCES);
        this.manipulations = store.open(HBaseSchema.MANIPULATIONS);
        this.pages = store.open(HBaseSchema.PAGES);
        this.shares = store.open(HBaseSchema.SHARES);
        this.feeds = feed.push() ? store.open(HBaseSchema.FEEDS) : null;
        this.pullFeed = new PullFeed(confirmed, shares, resources, this::fetch);
    }

    // ---- profile and friendship -----------------------------------------------------------------------------------

    @Override
    public void viewProfile(int requester, int profile, ProfileView out) {
        boolean own = requester == profile;
        try {
            Result r = members.get(new Get(HBaseSchema.id(profile)).addFamily(A).addFamily(P));
            if (r.isEmpty()) {
                throw new StoreException("VP: no member " + profile);
            }
            out.memberId = profile;
            out.profileImage = null;
            out.pendingCount = -1;
            for (Cell c : r.rawCells()) {
                if (matches(c, P)) {
                    out.profileImage = value(c);
                } else if (c.getQualifierLength() == 1) {
                    int i = c.getQualifierArray()[c.getQualifierOffset()];
                    if (i < out.attributes.count()) {
                        out.attributes.setUtf8(i, value(c));
                    }
                } else if (manual) {
                    long n = Bytes.toLong(c.getValueArray(), c.getValueOffset());
                    switch (c.getQualifierArray()[c.getQualifierOffset()]) {
                        case 'f' -> out.friendCount = (int) n;
                        case 'r' -> out.resourceCount = (int) n;
                        case 'p' -> out.pendingCount = own ? (int) n : -1;
                        default -> {}
                    }
                }
            }
            if (!manual) {
                // Basic: the counts are the lengths of the member's friend, wall (and invitation) rows.
                out.friendCount = columns(confirmed, profile, F);
                out.resourceCount = columns(wall, profile, R);
                out.pendingCount = own ? columns(pending, profile, F) : -1;
            }
        } catch (IOException e) {
            throw HBaseStore.failed("VP", e);
        }
    }

    /** The columns of one family of a row, values left on the server. */
    private static int columns(Table t, int row, byte[] family) throws IOException {
        return t.get(new Get(HBaseSchema.id(row)).addFamily(family).setFilter(new KeyOnlyFilter()))
                .size();
    }

    @Override
    public void listFriends(int requester, int profile, MemberList out) {
        try {
            listMembers(
                    ids(confirmed.get(
                            new Get(HBaseSchema.id(profile)).addFamily(F).setFilter(new KeyOnlyFilter()))),
                    out);
        } catch (IOException e) {
            throw HBaseStore.failed("LF", e);
        }
    }

    @Override
    public void viewFriendRequests(int member, MemberList out) {
        try {
            listMembers(
                    ids(pending.get(new Get(HBaseSchema.id(member)).addFamily(F).setFilter(new KeyOnlyFilter()))), out);
        } catch (IOException e) {
            throw HBaseStore.failed("VFR", e);
        }
    }

    /** The member ids a row lists as its qualifiers. */
    private static int[] ids(Result r) {
        Cell[] cells = r.rawCells();
        int[] ids = new int[cells.length];
        for (int i = 0; i < cells.length; i++) {
            ids[i] = Bytes.toInt(cells[i].getQualifierArray(), cells[i].getQualifierOffset());
        }
        return ids;
    }

    /** Each member's attributes and thumbnail: one multi-get (BatchedGet) or one get each (SingleGet). */
    private void listMembers(int[] ids, MemberList out) throws IOException {
        out.clear();
        List<Get> gets = new ArrayList<>(ids.length);
        for (int id : ids) {
            gets.add(new Get(HBaseSchema.id(id)).addFamily(A).addFamily(T));
        }
        Result[] rows = fetch(members, gets);
        for (int i = 0; i < ids.length; i++) {
            if (rows[i].isEmpty()) {
                throw new StoreException("member " + ids[i] + " is related but not in the store");
            }
            MemberList.Row row = out.add(ids[i]);
            row.thumbnail = null;
            for (Cell c : rows[i].rawCells()) {
                if (matches(c, T)) {
                    row.thumbnail = value(c);
                } else if (c.getQualifierLength() == 1) {
                    int a = c.getQualifierArray()[c.getQualifierOffset()];
                    if (a < row.attributes.count()) {
                        row.attributes.setUtf8(a, value(c));
                    }
                }
            }
        }
    }

    private Result[] fetch(Table t, List<Get> gets) throws IOException {
        if (batched || gets.size() <= 1) {
            return gets.isEmpty() ? new Result[0] : t.get(gets);
        }
        Result[] out = new Result[gets.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = t.get(gets.get(i));
        }
        return out;
    }

    @Override
    public void inviteFriend(int inviter, int invitee) {
        try {
            pending.put(put(HBaseSchema.id(invitee)).addColumn(F, HBaseSchema.id(inviter), EMPTY));
            if (manual) {
                members.increment(increment(invitee).addColumn(A, HBaseSchema.PENDING_COUNT, 1));
            }
        } catch (IOException e) {
            throw HBaseStore.failed("IF", e);
        }
    }

    @Override
    public void acceptFriendRequest(int invitee, int inviter) {
        try {
            confirmed.put(List.of(
                    put(HBaseSchema.id(invitee)).addColumn(F, HBaseSchema.id(inviter), EMPTY),
                    put(HBaseSchema.id(inviter)).addColumn(F, HBaseSchema.id(invitee), EMPTY)));
            pending.delete(delete(HBaseSchema.id(invitee)).addColumns(F, HBaseSchema.id(inviter)));
            if (manual) {
                members.batch(
                        List.<Row>of(
                                increment(inviter).addColumn(A, HBaseSchema.FRIEND_COUNT, 1),
                                increment(invitee)
                                        .addColumn(A, HBaseSchema.FRIEND_COUNT, 1)
                                        .addColumn(A, HBaseSchema.PENDING_COUNT, -1)),
                        new Object[2]);
            }
            if (feed.push()) {
                // Each now sees the other's past shares that are public or list her (dissertation 8.4.2).
                pushPastShares(inviter, invitee);
                pushPastShares(invitee, inviter);
            }
        } catch (IOException e) {
            throw HBaseStore.failed("AFR", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("AFR interrupted", e);
        }
    }

    @Override
    public void rejectFriendRequest(int invitee, int inviter) {
        try {
            pending.delete(delete(HBaseSchema.id(invitee)).addColumns(F, HBaseSchema.id(inviter)));
            if (manual) {
                members.increment(increment(invitee).addColumn(A, HBaseSchema.PENDING_COUNT, -1));
            }
        } catch (IOException e) {
            throw HBaseStore.failed("RFR", e);
        }
    }

    @Override
    public void thawFriendship(int member, int friend) {
        try {
            confirmed.delete(new ArrayList<>(List.of(
                    delete(HBaseSchema.id(member)).addColumns(F, HBaseSchema.id(friend)),
                    delete(HBaseSchema.id(friend)).addColumns(F, HBaseSchema.id(member)))));
            if (manual) {
                members.batch(
                        List.<Row>of(
                                increment(member).addColumn(A, HBaseSchema.FRIEND_COUNT, -1),
                                increment(friend).addColumn(A, HBaseSchema.FRIEND_COUNT, -1)),
                        new Object[2]);
            }
            if (feed.push()) {
                // Former friends no longer see each other's shares.
                dropSharesOf(friend, member);
                dropSharesOf(member, friend);
            }
        } catch (IOException e) {
            throw HBaseStore.failed("TF", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("TF interrupted", e);
        }
    }

    // ---- resources and comments -----------------------------------------------------------------------------------

    @Override
    public void viewTopKResources(int requester, int profile, int k, ResourceList out) {
        out.clear();
        if (k <= 0) {
            return;
        }
        try {
            // The wall row lists its newest resources first: its first k columns are the top k.
            Cell[] cells = wall.get(
                            new Get(HBaseSchema.id(profile)).addFamily(R).setFilter(new ColumnPaginationFilter(k, 0)))
                    .rawCells();
            List<Get> gets = new ArrayList<>(cells.length);
            long[] rids = new long[cells.length];
            for (int i = 0; i < cells.length; i++) {
                rids[i] = HBaseSchema.wallRid(cells[i].getQualifierArray(), cells[i].getQualifierOffset());
                gets.add(new Get(HBaseSchema.rid(rids[i])).addFamily(A));
            }
            Result[] rows = fetch(resources, gets);
            for (int i = 0; i < rids.length; i++) {
                if (rows[i].isEmpty()) {
                    continue;
                }
                ResourceList.Row row = out.add(rids[i]);
                for (Cell c : rows[i].rawCells()) {
                    switch (c.getQualifierArray()[c.getQualifierOffset()]) {
                        case 'c' -> row.creatorId = Bytes.toInt(c.getValueArray(), c.getValueOffset());
                        case 'w' -> row.wallUserId = Bytes.toInt(c.getValueArray(), c.getValueOffset());
                        case 't' -> row.type = string(c);
                        case 'b' -> row.body = string(c);
                        case 'd' -> row.doc = string(c);
                        default -> {}
                    }
                }
            }
        } catch (IOException e) {
            throw HBaseStore.failed("VTR", e);
        }
    }

    @Override
    public void viewCommentsOnResource(int requester, int owner, long resource, CommentList out) {
        out.clear();
        try {
            // The resource row's m family names its comments; their rows are read with their composite keys.
            Cell[] ids = resources
                    .get(new Get(HBaseSchema.rid(resource)).addFamily(M).setFilter(new KeyOnlyFilter()))
                    .rawCells();
            List<Get> gets = new ArrayList<>(ids.length);
            long[] mids = new long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                mids[i] = Bytes.toLong(ids[i].getQualifierArray(), ids[i].getQualifierOffset());
                gets.add(new Get(HBaseSchema.comment(resource, mids[i])).addFamily(A));
            }
            Result[] rows = fetch(manipulations, gets);
            for (int i = 0; i < mids.length; i++) {
                if (rows[i].isEmpty()) {
                    // Deleted between the two reads.
                    continue;
                }
                CommentList.Row row = out.add(mids[i]);
                row.resourceId = resource;
                row.type = COMMENT_TYPE;
                for (Cell c : rows[i].rawCells()) {
                    switch (c.getQualifierArray()[c.getQualifierOffset()]) {
                        case 'c' -> row.creatorId = Bytes.toInt(c.getValueArray(), c.getValueOffset());
                        case 'm' -> row.modifierId = Bytes.toInt(c.getValueArray(), c.getValueOffset());
                        case 's' -> row.timestampMs = Bytes.toLong(c.getValueArray(), c.getValueOffset());
                        case 'x' -> row.content = string(c);
                        default -> {}
                    }
                }
            }
        } catch (IOException e) {
            throw HBaseStore.failed("VCR", e);
        }
    }

    @Override
    public void postCommentOnResource(
            int commenter, int owner, long resource, long commentId, long timestampMs, String content) {
        try {
            // The comment's row first, then its id in the resource row: a reader that finds the id finds the row.
            // The resource's creator is the member whose wall it is on (BG's generator posts every resource there).
            manipulations.put(
                    commentRow(put(HBaseSchema.comment(resource, commentId)), owner, commenter, timestampMs, content));
            resources.put(put(HBaseSchema.rid(resource)).addColumn(M, Bytes.toBytes(commentId), EMPTY));
        } catch (IOException e) {
            throw HBaseStore.failed("PCR", e);
        }
    }

    static Put commentRow(Put p, int creator, int modifier, long ts, String content) {
        return p.addColumn(A, HBaseSchema.CREATOR, Bytes.toBytes(creator))
                .addColumn(A, HBaseSchema.MODIFIER, Bytes.toBytes(modifier))
                .addColumn(A, HBaseSchema.STAMP, Bytes.toBytes(ts))
                .addColumn(A, HBaseSchema.CONTENT, Bytes.toBytes(content));
    }

    @Override
    public void deleteCommentFromResource(int owner, long resource, long commentId) {
        try {
            // The id first: no reader finds an id whose row is gone (VCR skips one anyway).
            resources.delete(delete(HBaseSchema.rid(resource)).addColumns(M, Bytes.toBytes(commentId)));
            manipulations.delete(delete(HBaseSchema.comment(resource, commentId)));
        } catch (IOException e) {
            throw HBaseStore.failed("DCR", e);
        }
    }

    // ---- feed following (dissertation 3.2, 8.4) -------------------------------------------------------------------

    @Override
    public void shareResource(int sharer, long resource, long shareId, int[] recipients) {
        try {
            byte[] share = ShareCodec.share(resource, recipients);
            if (!feed.push()) {
                // Pull (figure 8.11): the share is stored with its sharer and nowhere else.
                shares.put(put(HBaseSchema.id(sharer)).addColumn(S, HBaseSchema.newestFirst(shareId), share));
                return;
            }
            // The audience as of now: a member's friends, a page's followers.
            int[] audience = ids((sharer >= firstPage ? pages : confirmed)
                    .get(new Get(HBaseSchema.id(sharer)).addFamily(F).setFilter(new KeyOnlyFilter())));
            byte[] entry = feedEntry(
                    sharer,
                    resource,
                    feed.content() ? resources.get(new Get(HBaseSchema.rid(resource)).addFamily(A)) : null);
            // The share first: an AFR that reads the sharer's shares meanwhile pushes it too (the same feed column).
            shares.put(put(HBaseSchema.id(sharer)).addColumn(S, HBaseSchema.newestFirst(shareId), share));
            List<Put> puts = new ArrayList<>(audience.length);
            for (int m : audience) {
                if (recipients == null || contains(recipients, m)) {
                    puts.add(put(HBaseSchema.id(m)).addColumn(F, feedColumn(shareId), entry));
                }
            }
            if (!puts.isEmpty()) {
                feeds.put(puts);
            }
        } catch (IOException e) {
            throw HBaseStore.failed("SR", e);
        }
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    /** Sorted-push keeps a feed newest first (VNF reads its first k columns); push in share order, read whole. */
    private byte[] feedColumn(long shareId) {
        return feed.kind() == FeedDesign.Kind.SORTED_PUSH ? HBaseSchema.newestFirst(shareId) : Bytes.toBytes(shareId);
    }

    private long feedShareId(Cell c) {
        return feed.kind() == FeedDesign.Kind.SORTED_PUSH
                ? HBaseSchema.fromNewestFirst(c.getQualifierArray(), c.getQualifierOffset())
                : Bytes.toLong(c.getQualifierArray(), c.getQualifierOffset());
    }

    /** A feed column's value: the sharer and resource, with the resource's type, body and doc in Push Content. */
    private static byte[] feedEntry(int sharer, long rid, Result resource) {
        if (resource == null) {
            return ShareCodec.entry(sharer, rid, null, null, null);
        }
        return ShareCodec.entry(
                sharer,
                rid,
                resource.getValue(A, HBaseSchema.TYPE),
                resource.getValue(A, HBaseSchema.BODY),
                resource.getValue(A, HBaseSchema.DOC));
    }

    /** Push: the shares of {@code sharer} that {@code viewer} may see, into her feed. */
    private void pushPastShares(int sharer, int viewer) throws IOException {
        Cell[] cells = shares.get(new Get(HBaseSchema.id(sharer)).addFamily(S)).rawCells();
        List<Put> puts = new ArrayList<>();
        for (Cell c : cells) {
            if (!ShareCodec.visible(c, viewer)) {
                continue;
            }
            long shareId = HBaseSchema.fromNewestFirst(c.getQualifierArray(), c.getQualifierOffset());
            long rid = ShareCodec.rid(c);
            Result content = feed.content() ? resources.get(new Get(HBaseSchema.rid(rid)).addFamily(A)) : null;
            puts.add(put(HBaseSchema.id(viewer)).addColumn(F, feedColumn(shareId), feedEntry(sharer, rid, content)));
        }
        if (!puts.isEmpty()) {
            feeds.put(puts);
        }
    }

    /** Push: removes {@code sharer}'s shares from {@code viewer}'s feed. */
    private void dropSharesOf(int sharer, int viewer) throws IOException {
        Cell[] cells = shares.get(new Get(HBaseSchema.id(sharer)).addFamily(S).setFilter(new KeyOnlyFilter()))
                .rawCells();
        if (cells.length == 0) {
            return;
        }
        Delete d = delete(HBaseSchema.id(viewer));
        for (Cell c : cells) {
            d.addColumns(F, feedColumn(HBaseSchema.fromNewestFirst(c.getQualifierArray(), c.getQualifierOffset())));
        }
        feeds.delete(d);
    }

    @Override
    public void viewNewsFeed(int member, int k, FeedList out) {
        out.clear();
        if (k <= 0) {
            return;
        }
        try {
            switch (feed.kind()) {
                case PULL -> pullFeed.read(member, k, out);
                case PUSH -> {
                    // Push reads the whole feed (in share order) and keeps the k newest.
                    Cell[] cells = feeds.get(new Get(HBaseSchema.id(member)).addFamily(F))
                            .rawCells();
                    List<Cell> top = new ArrayList<>(k);
                    for (int i = cells.length - 1; i >= 0 && top.size() < k; i--) {
                        top.add(cells[i]);
                    }
                    fill(top, out);
                }
                case SORTED_PUSH -> {
                    Cell[] cells = feeds.get(new Get(HBaseSchema.id(member))
                                    .addFamily(F)
                                    .setFilter(new ColumnPaginationFilter(k, 0)))
                            .rawCells();
                    fill(List.of(cells), out);
                }
            }
        } catch (IOException e) {
            throw HBaseStore.failed("VNF", e);
        }
    }

    /** Push designs: feed columns, newest first, into {@code out}; references resolved with one multi-get. */
    private void fill(List<Cell> cells, FeedList out) throws IOException {
        List<Get> gets = new ArrayList<>();
        if (!feed.content()) {
            for (Cell c : cells) {
                gets.add(new Get(HBaseSchema.rid(ShareCodec.entryRid(c))).addFamily(A));
            }
        }
        Result[] rows = fetch(resources, gets);
        for (int i = 0; i < cells.size(); i++) {
            Cell c = cells.get(i);
            FeedList.Row row = out.add(feedShareId(c));
            row.sharerId = ShareCodec.entrySharer(c);
            row.resourceId = ShareCodec.entryRid(c);
            if (feed.content()) {
                ShareCodec.entryContent(c, row);
            } else {
                resourceContent(rows[i], row);
            }
        }
    }

    static void resourceContent(Result r, FeedList.Row row) {
        byte[] t = r.getValue(A, HBaseSchema.TYPE);
        byte[] b = r.getValue(A, HBaseSchema.BODY);
        byte[] d = r.getValue(A, HBaseSchema.DOC);
        row.type = t == null ? null : Bytes.toString(t);
        row.body = b == null ? null : Bytes.toString(b);
        row.doc = d == null ? null : Bytes.toString(d);
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    private Put put(byte[] row) {
        return new Put(row).setDurability(durability);
    }

    private Delete delete(byte[] row) {
        Delete d = new Delete(row);
        d.setDurability(durability);
        return d;
    }

    private Increment increment(int member) {
        Increment i = new Increment(HBaseSchema.id(member));
        i.setDurability(durability);
        // BG does not read the new values: the server need not send them.
        i.setReturnResults(false);
        return i;
    }

    private static boolean matches(Cell c, byte[] family) {
        return CellUtil.matchingFamily(c, family);
    }

    private static byte[] value(Cell c) {
        return CellUtil.cloneValue(c);
    }

    private static String string(Cell c) {
        return Bytes.toString(c.getValueArray(), c.getValueOffset(), c.getValueLength());
    }

    @Override
    public void close() {
        for (Table t :
                new Table[] {members, confirmed, pending, wall, resources, manipulations, pages, shares, feeds}) {
            if (t != null) {
                try {
                    t.close();
                } catch (IOException e) {
                    // Nothing of its own to release: the connection is the store's.
                }
            }
        }
    }
}
