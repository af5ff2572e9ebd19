package org.bgbench.store.relational;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Lock;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.EdgeVisitor;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.ErrorText;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.LoadProgress;
import org.bgbench.store.StoreException;

/**
 * Generates the rows of a member range and writes them through the dialect's {@link RowSink} in chunks of a few
 * tens of thousands of rows, each flushed (and committed) as a unit. Generation runs outside the write lock, so
 * loaders of a single-writer engine still build their rows in parallel.
 *
 * <p>Feed following: a member's follows are written with the member. A fragment's pages (and their resources) are
 * written by the loader whose range holds the fragment's first member, right after that member, so loaders given
 * disjoint ranges that cover the members write every page exactly once, whatever the ranges' boundaries.
 */
final class RelationalLoader implements GraphLoader, EdgeVisitor {
    /** Rows per flush: large enough to amortise a commit or a COPY, small enough to keep buffers in cache. */
    private static final int ROWS_PER_FLUSH = 20_000;
    /** Image bytes per flush, so graphs with large profile images keep bounded buffers. */
    private static final long IMAGE_BYTES_PER_FLUSH = 16L << 20;

    private final SocialGraph graph;
    private final RowSink sink;
    private final Lock writeLock;
    private final boolean twoRows;
    /** {@code images=fs}: where profile images are written; null when they are inline. */
    private final ImageFiles images;
    /** {@code counts=attributes}: the member's friend, pending and resource counts, from the generator; else null. */
    private final int[] counts;

    private final int chunk;
    private final String[] attributes;
    private final int pagesPerFragment;
    private int[] edges = new int[64];
    private int[] followed = new int[16];
    private int followCount;
    private int edgeCount;

    RelationalLoader(SocialGraph graph, RowSink sink, Lock writeLock, RelationalSchema schema) {
        this(graph, sink, writeLock, schema, null);
    }

    RelationalLoader(SocialGraph graph, RowSink sink, Lock writeLock, RelationalSchema schema, ImageFiles images) {
        this.graph = graph;
        this.sink = sink;
        this.writeLock = writeLock;
        this.twoRows = schema.friendshipRows() == 2;
        this.images = images;
        this.counts = schema.physical().countAttributes() ? new int[3] : null;
        GraphSpec spec = graph.spec();
        this.pagesPerFragment = graph.pages() / graph.fragments();
        long rowsPerMember = 1
                + spec.friendsPerMember()
                + (long) spec.resourcesPerMember() * (1 + spec.commentsPerResource())
                + graph.pagesPerMember()
                + (graph.pages() == 0 ? 0 : (1L + graph.resourcesPerPage()) * graph.pages() / graph.members() + 1);
        long byRows = Math.max(1, ROWS_PER_FLUSH / rowsPerMember);
        long imageBytes = spec.images() ? (long) spec.thumbnailBytes() + spec.profileImageBytes() : 0;
        long byImages = imageBytes == 0 ? Long.MAX_VALUE : Math.max(1, IMAGE_BYTES_PER_FLUSH / imageBytes);
        this.chunk = (int) Math.min(Math.min(byRows, byImages), 1000);
        this.attributes = new String[spec.attributeCount()];
    }

    @Override
    public void load(int from, int to, LoadProgress progress) {
        int start = from;
        try {
            while (start < to) {
                int end = Math.min(to, start + chunk);
                long rows = 0;
                for (int attempt = 1; ; attempt++) {
                    rows = 0;
                    for (int i = start; i < end; i++) {
                        rows += member(i);
                    }
                    try {
                        flush();
                        break;
                    } catch (SQLException e) {
                        // A deadlock victim's flush was rolled back whole and the sink emptied (MariaDB: two loaders'
                        // first inserts into an empty InnoDB table both want its table lock). The graph is
                        // deterministic, so the chunk is generated and sent again.
                        if (!deadlock(e) || attempt == DEADLOCK_ATTEMPTS) {
                            throw e;
                        }
                        pause(attempt);
                    }
                }
                progress.rows(rows);
                start = end;
            }
        } catch (SQLException e) {
            throw new StoreException(
                    "loading members " + graph.memberId(start) + ".." + graph.memberId(to - 1) + " failed: "
                            + ErrorText.message(e),
                    e);
        }
    }

    private static final int DEADLOCK_ATTEMPTS = 5;

    /** A deadlock anywhere in the chain: SQLSTATE 40001 / 40P01, MySQL's 1213, or a transaction rollback. */
    static boolean deadlock(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransactionRollbackException) {
                return true;
            }
            if (t instanceof SQLException q
                    && (q.getErrorCode() == 1213
                            || "40001".equals(q.getSQLState())
                            || "40P01".equals(q.getSQLState()))) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** A short random pause, longer with each attempt, so the two victims do not collide again. */
    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(10, 50L * attempt));
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    private long member(int index) throws SQLException {
        int id = graph.memberId(index);
        graph.attributes(index, attributes);
        if (images == null && counts == null) {
            sink.member(id, attributes, graph.profileImage(index), graph.thumbnail(index));
        } else {
            byte[] pic = graph.profileImage(index);
            String picPath = null;
            if (images != null && pic != null) {
                // Written before the row is buffered, so a committed row never names a file not yet written.
                picPath = images.write(id, pic);
                pic = null;
            }
            if (counts != null) {
                // CIKM 2013 E.1 (Manual): the loader knows every count from the generator.
                counts[0] = graph.initialFriendCount(index);
                counts[1] = graph.initialPendingCount(index);
                counts[2] = graph.resourcesPerMember();
            }
            sink.member(id, attributes, pic, picPath, graph.thumbnail(index), counts);
        }
        long rows = 1;
        edgeCount = 0;
        graph.forEachStartedRelationship(index, this);
        for (int e = 0; e < edgeCount; e += 3) {
            int inviter = graph.memberId(edges[e]);
            int invitee = graph.memberId(edges[e + 1]);
            int status = edges[e + 2];
            sink.friendship(inviter, invitee, status);
            rows++;
            if (twoRows && status == RelationalSchema.CONFIRMED) {
                sink.friendship(invitee, inviter, status);
                rows++;
            }
        }
        int comments = graph.spec().commentsPerResource();
        for (int j = 0; j < graph.resourcesPerMember(); j++) {
            long rid = graph.resourceId(index, j);
            sink.resource(rid, id, id, graph.resourceType(rid), graph.resourceBody(rid), graph.resourceDoc(rid));
            rows++;
            for (int k = 0; k < comments; k++) {
                long mid = graph.commentId(rid, k);
                sink.comment(
                        mid,
                        id,
                        rid,
                        graph.memberId(graph.commentModifier(mid)),
                        graph.commentTimestamp(mid),
                        graph.commentContent(mid));
                rows++;
            }
        }
        if (graph.pagesPerMember() > 0) {
            // Buffered first, as relationships are, so the sink may throw.
            followCount = 0;
            graph.forEachFollowedPage(index, this::followed);
            for (int i = 0; i < followCount; i++) {
                sink.follow(id, graph.accountId(graph.pageAccount(followed[i])));
            }
            rows += followCount;
        }
        if (pagesPerFragment > 0) {
            int f = graph.fragmentOf(index);
            if (graph.fragmentStart(f) == index) {
                for (int p = f * pagesPerFragment; p < (f + 1) * pagesPerFragment; p++) {
                    rows += page(p);
                }
            }
        }
        return rows;
    }

    private void followed(int page) {
        if (followCount == followed.length) {
            followed = Arrays.copyOf(followed, followed.length * 2);
        }
        followed[followCount++] = page;
    }

    private long page(int page) throws SQLException {
        int id = graph.accountId(graph.pageAccount(page));
        sink.page(id, graph.pageName(page));
        int n = graph.resourcesPerPage();
        for (int j = 0; j < n; j++) {
            long rid = graph.pageResourceId(page, j);
            // A page's resources are on its own wall, like a member's (dissertation 5.1).
            sink.resource(rid, id, id, graph.resourceType(rid), graph.resourceBody(rid), graph.resourceDoc(rid));
        }
        return 1 + n;
    }

    /** Buffers a started relationship; rows are written after the visit so the sink may throw checked exceptions. */
    @Override
    public void edge(int inviter, int invitee, boolean confirmed) {
        if (edgeCount + 3 > edges.length) {
            edges = Arrays.copyOf(edges, edges.length * 2);
        }
        edges[edgeCount++] = inviter;
        edges[edgeCount++] = invitee;
        edges[edgeCount++] = confirmed ? RelationalSchema.CONFIRMED : RelationalSchema.PENDING;
    }

    private void flush() throws SQLException {
        if (writeLock == null) {
            sink.flush();
            return;
        }
        writeLock.lock();
        try {
            sink.flush();
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public void close() {
        try {
            sink.close();
        } catch (SQLException e) {
            throw new StoreException("closing a loader connection failed: " + e.getMessage(), e);
        }
    }
}
