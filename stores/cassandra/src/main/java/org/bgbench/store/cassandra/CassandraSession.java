package org.bgbench.store.cassandra;

import static org.bgbench.store.cassandra.CassandraStore.join;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
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
 * The actions in CQL (the Cassandra/NuoDB report's table 2, with the changes the README lists). A read of several
 * partitions (LF's and VFR's profiles, VNF's producers and resources) sends its requests at once and waits for all.
 * Nothing is isolated across partitions: what each action guarantees at each consistency level is in the README.
 */
final class CassandraSession implements StoreSession {
    private static final String COMMENT_TYPE = "comment";

    private final Statements st;
    private final CqlSession cql;
    private final CassandraConfig config;
    private final boolean report;
    private final FeedDesign feed;
    /** Account ids from here on are pages. */
    private final int firstPage;

    CassandraSession(Statements st, CassandraConfig config, int firstPage, CqlSession cql) {
        this.st = st;
        this.cql = cql;
        this.config = config;
        this.report = config.design() == CassandraConfig.Design.REPORT;
        this.feed = config.feed();
        this.firstPage = firstPage;
    }

    @Override
    public void viewProfile(int requester, int profile, ProfileView out) {
        boolean own = requester == profile;
        CompletionStage<AsyncResultSet> count = report ? cql.executeAsync(st.resourceCount.bind(profile)) : null;
        Row r = cql.execute((own ? st.ownProfile : st.profile).bind(profile)).one();
        if (r == null) {
            throw new StoreException("VP: no member " + profile);
        }
        out.memberId = profile;
        copy(r.getList(0, String.class), out.attributes);
        ByteBuffer pic = r.getByteBuffer(1);
        out.profileImage = pic == null ? null : bytes(pic);
        // The sets' sizes, read from their serialized form: no set of boxed ids is built for a count.
        out.friendCount = CassandraStore.setSize(r.getBytesUnsafe(2));
        out.resourceCount = report ? (int) join(count).one().getLong(0) : r.getInt(3);
        out.pendingCount = own ? CassandraStore.setSize(r.getBytesUnsafe(report ? 3 : 4)) : -1;
    }

    @Override
    public void listFriends(int requester, int profile, MemberList out) {
        Row r = cql.execute(st.friends.bind(profile)).one();
        listMembers(r == null ? Set.of() : r.getSet(0, Integer.class), out);
    }

    @Override
    public void viewFriendRequests(int member, MemberList out) {
        Row r = cql.execute(st.pending.bind(member)).one();
        listMembers(r == null ? Set.of() : r.getSet(0, Integer.class), out);
    }

    /** Each member's attributes and thumbnail, all requested at once. */
    private void listMembers(Set<Integer> ids, MemberList out) {
        out.clear();
        int n = ids.size();
        int[] order = new int[n];
        @SuppressWarnings("unchecked")
        CompletionStage<AsyncResultSet>[] rows = new CompletionStage[n];
        int i = 0;
        for (int id : ids) {
            order[i] = id;
            rows[i++] = cql.executeAsync(st.listed.bind(id));
        }
        for (i = 0; i < n; i++) {
            Row r = join(rows[i]).one();
            if (r == null) {
                throw new StoreException("member " + order[i] + " is related but not in the store");
            }
            MemberList.Row row = out.add(order[i]);
            copy(r.getList(0, String.class), row.attributes);
            ByteBuffer t = r.getByteBuffer(1);
            row.thumbnail = t == null ? null : bytes(t);
        }
    }

    @Override
    public void inviteFriend(int inviter, int invitee) {
        cql.execute(st.invite.bind(Set.of(inviter), invitee));
    }

    @Override
    public void acceptFriendRequest(int invitee, int inviter) {
        twoRows(
                st.acceptInvitee.bind(Set.of(inviter), Set.of(inviter), invitee),
                st.acceptInviter.bind(Set.of(invitee), inviter));
        if (feed.push()) {
            // Each now sees the other's past shares that are public or list her (dissertation 8.4.2).
            List<CompletionStage<AsyncResultSet>> writes = new ArrayList<>();
            pushPastShares(inviter, invitee, writes);
            pushPastShares(invitee, inviter, writes);
            writes.forEach(CassandraStore::join);
        }
    }

    @Override
    public void rejectFriendRequest(int invitee, int inviter) {
        cql.execute(st.reject.bind(Set.of(inviter), invitee));
    }

    @Override
    public void thawFriendship(int member, int friend) {
        twoRows(st.unfriend.bind(Set.of(friend), member), st.unfriend.bind(Set.of(member), friend));
        if (feed.push()) {
            // Former friends no longer see each other's shares.
            CompletionStage<AsyncResultSet> a = dropSharesOf(friend, member);
            CompletionStage<AsyncResultSet> b = dropSharesOf(member, friend);
            if (a != null) {
                join(a);
            }
            if (b != null) {
                join(b);
            }
        }
    }

    /** AFR's and TF's two member rows, as {@code cassandra.batch} says. */
    private void twoRows(BoundStatement a, BoundStatement b) {
        switch (config.batch()) {
            case LOGGED ->
                cql.execute(BatchStatement.newInstance(BatchType.LOGGED, a, b)
                        .setConsistencyLevel(st.write)
                        .setIdempotent(true));
            case UNLOGGED ->
                cql.execute(BatchStatement.newInstance(BatchType.UNLOGGED, a, b)
                        .setConsistencyLevel(st.write)
                        .setIdempotent(true));
            case SEPARATE -> {
                cql.execute(a);
                cql.execute(b);
            }
        }
    }

    @Override
    public void viewTopKResources(int requester, int profile, int k, ResourceList out) {
        out.clear();
        if (k <= 0) {
            return;
        }
        for (Row r : cql.execute(st.topResources.bind(profile, k))) {
            ResourceList.Row row = out.add(r.getLong(0));
            row.creatorId = r.getInt(1);
            row.wallUserId = profile;
            row.type = r.getString(2);
            row.body = r.getString(3);
            row.doc = r.getString(4);
        }
    }

    @Override
    public void viewCommentsOnResource(int requester, int owner, long resource, CommentList out) {
        out.clear();
        for (Row r : cql.execute(st.comments.bind(resource))) {
            CommentList.Row row = out.add(r.getLong(0));
            row.resourceId = resource;
            row.creatorId = r.getInt(1);
            row.modifierId = r.getInt(2);
            row.timestampMs = r.getLong(3);
            row.type = COMMENT_TYPE;
            row.content = r.getString(4);
        }
    }

    @Override
    public void postCommentOnResource(
            int commenter, int owner, long resource, long commentId, long timestampMs, String content) {
        // The resource's creator is the member whose wall it is on: BG's generator posts every resource on its
        // creator's wall.
        cql.execute(
                report
                        ? st.postComment.bind(commentId, resource, owner, commenter, timestampMs, content)
                        : st.postComment.bind(resource, commentId, owner, commenter, timestampMs, content));
    }

    @Override
    public void deleteCommentFromResource(int owner, long resource, long commentId) {
        cql.execute(report ? st.deleteComment.bind(commentId) : st.deleteComment.bind(resource, commentId));
    }

    // ---- feed following (dissertation 3.2, 8.4) -------------------------------------------------------------------

    @Override
    public void shareResource(int sharer, long resource, long shareId, int[] recipients) {
        Set<Integer> listed = null;
        if (recipients != null) {
            listed = new HashSet<>(recipients.length * 2);
            for (int r : recipients) {
                listed.add(r);
            }
        }
        if (!feed.push()) {
            // Pull (figure 8.11): the share is stored with its sharer and nowhere else.
            cql.execute(
                    st.insertShare.bind(sharer, shareId, resource, listed == null, listed == null ? Set.of() : listed));
            return;
        }
        // The audience as of now: a member's friends, a page's followers.
        Row a = cql.execute(sharer >= firstPage ? st.followers.bind(sharer) : st.friends.bind(sharer))
                .one();
        Set<Integer> audience = a == null ? Set.of() : a.getSet(0, Integer.class);
        Row content =
                feed.content() ? cql.execute(st.resource.bind(sharer, resource)).one() : null;
        List<CompletionStage<AsyncResultSet>> writes = new ArrayList<>();
        // The share first: an AFR that reads the sharer's shares meanwhile pushes it too (the same feed row).
        cql.execute(st.insertShare.bind(sharer, shareId, resource, listed == null, listed == null ? Set.of() : listed));
        for (int m : audience) {
            if (listed == null || listed.contains(m)) {
                writes.add(cql.executeAsync(feedRow(m, shareId, sharer, resource, content)));
            }
        }
        writes.forEach(CassandraStore::join);
    }

    private BoundStatement feedRow(int member, long shareId, int sharer, long resource, Row content) {
        return content == null
                ? st.insertFeed.bind(member, shareId, sharer, resource, null, null, null)
                : st.insertFeed.bind(
                        member,
                        shareId,
                        sharer,
                        resource,
                        content.getString(0),
                        content.getString(1),
                        content.getString(2));
    }

    /** Push: the shares of {@code sharer} that {@code viewer} may see, into her feed. */
    private void pushPastShares(int sharer, int viewer, List<CompletionStage<AsyncResultSet>> writes) {
        for (Row s : cql.execute(st.sharesOf.bind(sharer))) {
            if (!visible(s, viewer)) {
                continue;
            }
            long rid = s.getLong(1);
            Row content =
                    feed.content() ? cql.execute(st.resource.bind(sharer, rid)).one() : null;
            writes.add(cql.executeAsync(feedRow(viewer, s.getLong(0), sharer, rid, content)));
        }
    }

    /** Push: removes {@code sharer}'s shares from {@code viewer}'s feed; null when she shared nothing. */
    private CompletionStage<AsyncResultSet> dropSharesOf(int sharer, int viewer) {
        List<Long> ids = new ArrayList<>();
        for (Row s : cql.execute(st.shareIdsOf.bind(sharer))) {
            ids.add(s.getLong(0));
        }
        return ids.isEmpty() ? null : cql.executeAsync(st.deleteFeed.bind(viewer, ids));
    }

    private static boolean visible(Row share, int viewer) {
        return share.getBoolean(2) || share.getSet(3, Integer.class).contains(viewer);
    }

    @Override
    public void viewNewsFeed(int member, int k, FeedList out) {
        out.clear();
        if (k <= 0) {
            return;
        }
        switch (feed.kind()) {
            case PULL -> pull(member, k, out);
            case PUSH -> {
                // Push reads the whole feed (kept in arrival order) and keeps the k newest.
                List<Row> all = new ArrayList<>();
                for (Row r : cql.execute(st.feed.bind(member))) {
                    all.add(r);
                }
                all.sort((x, y) -> Long.compare(y.getLong(0), x.getLong(0)));
                fill(all.subList(0, Math.min(k, all.size())), out);
            }
            case SORTED_PUSH -> {
                List<Row> top = new ArrayList<>(k);
                for (Row r : cql.execute(st.feed.bind(member, k))) {
                    top.add(r);
                }
                fill(top, out);
            }
        }
    }

    /** Push designs: feed rows (shareid, sharer, rid, type, body, doc), newest first, into {@code out}. */
    private void fill(List<Row> rows, FeedList out) {
        @SuppressWarnings("unchecked")
        CompletionStage<AsyncResultSet>[] joins = new CompletionStage[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            if (!feed.content()) {
                joins[i] = cql.executeAsync(st.resource.bind(r.getInt(1), r.getLong(2)));
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            FeedList.Row row = out.add(r.getLong(0));
            row.sharerId = r.getInt(1);
            row.resourceId = r.getLong(2);
            Row attrs = joins[i] == null ? null : join(joins[i]).one();
            row.type = attrs == null ? r.getString(3) : attrs.getString(0);
            row.body = attrs == null ? r.getString(4) : attrs.getString(1);
            row.doc = attrs == null ? r.getString(5) : attrs.getString(2);
        }
    }

    /** A share a producer holds, for Pull's top k. */
    private record Candidate(long shareId, int sharer, long rid) {}

    /**
     * Pull (figure 8.11): the member's friends and followed pages, then every producer's newest shares at once (pages
     * of k rows, newest first), merged into the top k; further pages only for a producer whose shares listed others.
     */
    private void pull(int member, int k, FeedList out) {
        Row m = cql.execute(st.producers.bind(member)).one();
        if (m == null) {
            return;
        }
        Set<Integer> friends = m.getSet(0, Integer.class);
        Set<Integer> pages = m.getSet(1, Integer.class);
        int[] producers = new int[friends.size() + pages.size()];
        int n = 0;
        for (int f : friends) {
            producers[n++] = f;
        }
        for (int p : pages) {
            producers[n++] = p;
        }
        @SuppressWarnings("unchecked")
        CompletionStage<AsyncResultSet>[] first = new CompletionStage[n];
        for (int i = 0; i < n; i++) {
            first[i] = cql.executeAsync(st.sharesOf.bind(producers[i]).setPageSize(k));
        }
        List<Candidate> top = new ArrayList<>(k + 1);
        for (int i = 0; i < n; i++) {
            AsyncResultSet page = join(first[i]);
            while (true) {
                boolean more = true;
                for (Row s : page.currentPage()) {
                    long id = s.getLong(0);
                    if (top.size() == k && id < top.get(k - 1).shareId) {
                        more = false;
                        break;
                    }
                    if (visible(s, member)) {
                        offer(top, new Candidate(id, producers[i], s.getLong(1)), k);
                    }
                }
                if (!more || !page.hasMorePages()) {
                    break;
                }
                page = join(page.fetchNextPage());
            }
        }
        @SuppressWarnings("unchecked")
        CompletionStage<AsyncResultSet>[] joins = new CompletionStage[top.size()];
        for (int i = 0; i < top.size(); i++) {
            joins[i] = cql.executeAsync(st.resource.bind(top.get(i).sharer, top.get(i).rid));
        }
        for (int i = 0; i < top.size(); i++) {
            Candidate c = top.get(i);
            Row r = join(joins[i]).one();
            FeedList.Row row = out.add(c.shareId);
            row.sharerId = c.sharer;
            row.resourceId = c.rid;
            if (r != null) {
                row.type = r.getString(0);
                row.body = r.getString(1);
                row.doc = r.getString(2);
            }
        }
    }

    /** Inserts into the top k, kept newest first. */
    private static void offer(List<Candidate> top, Candidate c, int k) {
        int pos = top.size();
        while (pos > 0 && top.get(pos - 1).shareId < c.shareId) {
            pos--;
        }
        if (pos < k) {
            top.add(pos, c);
            if (top.size() > k) {
                top.remove(k);
            }
        }
    }

    @Override
    public void close() {
        // Sessions share the store's CqlSession.
    }

    private static void copy(List<String> from, Attributes to) {
        for (int i = 0, n = Math.min(from.size(), to.count()); i < n; i++) {
            to.set(i, from.get(i));
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
