package org.bgbench.store.hbase;

import static org.bgbench.store.hbase.HBaseSchema.A;
import static org.bgbench.store.hbase.HBaseSchema.F;
import static org.bgbench.store.hbase.HBaseSchema.G;
import static org.bgbench.store.hbase.HBaseSchema.M;
import static org.bgbench.store.hbase.HBaseSchema.P;
import static org.bgbench.store.hbase.HBaseSchema.R;
import static org.bgbench.store.hbase.HBaseSchema.T;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.LoadProgress;
import org.bgbench.store.StoreException;

/**
 * The bulk load: one buffered mutator per table per loading thread, which sends a region server its puts in batches of
 * {@code hbase.write-buffer} bytes. Every row is written whole by the loader of its member (each knows her friends,
 * inviters, pages and resources from the generator), so no row is written twice or by two loaders. By default the
 * load skips the write-ahead log and {@link HBaseStore#finishLoad} flushes every table.
 */
final class HBaseLoader implements GraphLoader {
    private static final byte[] EMPTY = new byte[0];

    private final HBaseStore store;
    private final SocialGraph graph;
    private final boolean manual;
    private final Durability durability;
    private final String[] attributes;
    private final List<BufferedMutator> open = new ArrayList<>();
    private final BufferedMutator members;
    private final BufferedMutator confirmed;
    private final BufferedMutator pending;
    private final BufferedMutator wall;
    private final BufferedMutator resources;
    private final BufferedMutator manipulations;
    private final BufferedMutator pages;
    private long rows;

    HBaseLoader(HBaseStore store, SocialGraph graph) {
        this.store = store;
        this.graph = graph;
        this.manual = store.config().manual();
        this.durability =
                store.config().loadWal(HBaseStore.rows(graph.spec())) ? Durability.SYNC_WAL : Durability.SKIP_WAL;
        this.attributes = new String[graph.attributeCount()];
        try {
            members = mutator(HBaseSchema.MEMBERS);
            confirmed = mutator(HBaseSchema.CONFIRMED);
            pending = mutator(HBaseSchema.PENDING);
            wall = mutator(HBaseSchema.WALL);
            resources = mutator(HBaseSchema.RESOURCES);
            manipulations = mutator(HBaseSchema.MANIPULATIONS);
            pages = mutator(HBaseSchema.PAGES);
        } catch (IOException | RuntimeException e) {
            close();
            throw new StoreException("cannot start loading into HBase: " + HBaseStore.cause(e), e);
        }
    }

    private BufferedMutator mutator(String table) throws IOException {
        BufferedMutator m = store.connection()
                .getBufferedMutator(new BufferedMutatorParams(store.table(table))
                        .writeBufferSize(store.config().writeBuffer()));
        open.add(m);
        return m;
    }

    @Override
    public void load(int from, int to, LoadProgress progress) {
        // A loader may be given several ranges one after the other: report only what this call writes.
        long reported = rows;
        try {
            for (int i = from; i < to; i++) {
                loadMember(i);
                if ((i - from + 1) % 64 == 0) {
                    progress.rows(rows - reported);
                    reported = rows;
                }
            }
            graph.forEachPageLoadedWith(from, to, p -> {
                try {
                    loadPage(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            for (BufferedMutator m : open) {
                m.flush();
            }
        } catch (IOException | UncheckedIOException e) {
            throw new StoreException("loading into HBase failed: " + HBaseStore.cause(e), e);
        }
        progress.rows(rows - reported);
    }

    private Put put(byte[] row) {
        return new Put(row).setDurability(durability);
    }

    private void loadMember(int index) throws IOException {
        int id = graph.memberId(index);
        byte[] key = HBaseSchema.id(id);
        graph.attributes(index, attributes);
        Put member = put(key);
        for (int a = 0; a < attributes.length; a++) {
            member.addColumn(A, HBaseSchema.attribute(a), Bytes.toBytes(attributes[a]));
        }
        if (manual) {
            member.addColumn(A, HBaseSchema.FRIEND_COUNT, Bytes.toBytes((long) graph.initialFriendCount(index)));
            member.addColumn(A, HBaseSchema.PENDING_COUNT, Bytes.toBytes((long) graph.initialPendingCount(index)));
            member.addColumn(A, HBaseSchema.RESOURCE_COUNT, Bytes.toBytes((long) graph.resourcesPerMember()));
        }
        byte[] tpic = graph.thumbnail(index);
        byte[] pic = graph.profileImage(index);
        if (tpic != null) {
            member.addColumn(T, HBaseSchema.IMAGE, tpic);
        }
        if (pic != null) {
            member.addColumn(P, HBaseSchema.IMAGE, pic);
        }
        members.mutate(member);

        Put friends = put(key);
        int[] above = {0};
        graph.forEachInitialFriend(index, f -> {
            int fid = graph.memberId(f);
            friends.addColumn(F, HBaseSchema.id(fid), EMPTY);
            above[0] += fid > id ? 1 : 0;
        });
        graph.forEachFollowedPage(
                index, p -> friends.addColumn(G, HBaseSchema.id(graph.accountId(graph.pageAccount(p))), EMPTY));
        if (!friends.isEmpty()) {
            confirmed.mutate(friends);
        }
        Put inviters = put(key);
        graph.forEachInitialInviter(index, f -> inviters.addColumn(F, HBaseSchema.id(graph.memberId(f)), EMPTY));
        if (!inviters.isEmpty()) {
            pending.mutate(inviters);
        }
        // Rows as bg load counts them for its progress line: each friendship once (at its smaller id), each
        // invitation once (at its invitee); follows and pages are not counted.
        rows += 1 + above[0] + inviters.size();
        loadWall(id, graph.resourcesPerMember(), j -> graph.resourceId(index, j));
    }

    private void loadPage(int p) throws IOException {
        int id = graph.accountId(graph.pageAccount(p));
        Put page = put(HBaseSchema.id(id)).addColumn(A, HBaseSchema.NAME, Bytes.toBytes(graph.pageName(p)));
        graph.forEachFollower(p, m -> page.addColumn(F, HBaseSchema.id(graph.memberId(m)), EMPTY));
        pages.mutate(page);
        loadWall(id, graph.resourcesPerPage(), j -> graph.pageResourceId(p, j));
    }

    /** A wall row naming its resources, each resource's row naming its comments, and the comments' rows. */
    private void loadWall(int owner, int count, IntToLongFunction rid) throws IOException {
        if (count == 0) {
            return;
        }
        Put w = put(HBaseSchema.id(owner));
        int perResource = graph.spec().commentsPerResource();
        for (int j = 0; j < count; j++) {
            long r = rid.applyAsLong(j);
            w.addColumn(R, HBaseSchema.wallColumn(r), EMPTY);
            Put res = put(HBaseSchema.rid(r))
                    .addColumn(A, HBaseSchema.CREATOR, Bytes.toBytes(owner))
                    .addColumn(A, HBaseSchema.WALL_OWNER, Bytes.toBytes(owner))
                    .addColumn(A, HBaseSchema.TYPE, Bytes.toBytes(graph.resourceType(r)))
                    .addColumn(A, HBaseSchema.BODY, Bytes.toBytes(graph.resourceBody(r)))
                    .addColumn(A, HBaseSchema.DOC, Bytes.toBytes(graph.resourceDoc(r)));
            boolean pageResource = graph.isPageResource(r);
            rows += pageResource ? 0 : 1;
            if (!pageResource) {
                for (int k = 0; k < perResource; k++) {
                    long mid = graph.commentId(r, k);
                    res.addColumn(M, Bytes.toBytes(mid), EMPTY);
                    manipulations.mutate(HBaseSession.commentRow(
                            put(HBaseSchema.comment(r, mid)),
                            owner,
                            graph.memberId(graph.commentModifier(mid)),
                            graph.commentTimestamp(mid),
                            graph.commentContent(mid)));
                    rows++;
                }
            }
            resources.mutate(res);
        }
        wall.mutate(w);
    }

    @Override
    public void close() {
        for (BufferedMutator m : open) {
            try {
                m.close();
            } catch (IOException e) {
                // A failed load already reported its cause.
            }
        }
    }
}
