package org.bgbench.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntToLongFunction;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.ErrorText;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.LoadProgress;
import org.bgbench.store.StoreException;

/**
 * The bulk load: asynchronous writes, at most {@code cassandra.load-in-flight} at once per loading thread, grouped per
 * partition. A member is one statement carrying her whole friend, invitation and page sets (each loader knows them from
 * the generator, so no edge is written twice or by two loaders); a wall's resources and a resource's comments go as
 * unlogged batches of one partition (one mutation on the replica, no batch log), cut below the server's batch-size
 * warning.
 */
final class CassandraLoader implements GraphLoader {
    /** Bytes of row data per batch: under Cassandra's default batch_size_warn_threshold of 5 KiB. */
    private static final int BATCH_BYTES = 4 * 1024;

    private static final int BATCH_ROWS = 100;
    /** Tries of one load write before the load fails. */
    private static final int TRIES = 6;

    private final CqlSession session;
    private final Statements st;
    private final SocialGraph graph;
    private final boolean report;
    private final int permits;
    private final Semaphore inFlight;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final String[] attributes;
    private long rows;

    CassandraLoader(CassandraStore store, SocialGraph graph) {
        this.session = store.cql();
        this.st = store.loaderStatements();
        this.graph = graph;
        this.report = store.config().design() == CassandraConfig.Design.REPORT;
        this.permits = store.config().loadInFlight();
        this.inFlight = new Semaphore(permits);
        this.attributes = new String[graph.attributeCount()];
    }

    @Override
    public void load(int from, int to, LoadProgress progress) {
        // A loader may be given several ranges one after the other: report only what this call writes.
        long reported = rows;
        for (int i = from; i < to; i++) {
            loadMember(i);
            if ((i - from + 1) % 64 == 0) {
                progress.rows(rows - reported);
                reported = rows;
            }
        }
        graph.forEachPageLoadedWith(from, to, this::loadPage);
        drain();
        progress.rows(rows - reported);
    }

    private void loadMember(int index) {
        int id = graph.memberId(index);
        graph.attributes(index, attributes);
        Set<Integer> friends = new HashSet<>();
        graph.forEachInitialFriend(index, f -> friends.add(graph.memberId(f)));
        Set<Integer> inviters = new HashSet<>();
        graph.forEachInitialInviter(index, f -> inviters.add(graph.memberId(f)));
        Set<Integer> pages = new HashSet<>();
        graph.forEachFollowedPage(index, p -> pages.add(graph.accountId(graph.pageAccount(p))));
        byte[] pic = graph.profileImage(index);
        byte[] tpic = graph.thumbnail(index);
        List<Object> values = new ArrayList<>(List.of(Arrays.asList(attributes.clone())));
        values.add(pic == null ? null : ByteBuffer.wrap(pic));
        values.add(tpic == null ? null : ByteBuffer.wrap(tpic));
        values.add(friends);
        values.add(inviters);
        values.add(pages);
        if (!report) {
            values.add(graph.resourcesPerMember());
        }
        values.add(id);
        send(st.loadMember.bind(values.toArray()));
        // Rows as bg load counts them for its progress line: each friendship once (at its smaller id), each
        // invitation once (at its invitee); follows and pages are not counted.
        int above = 0;
        for (int f : friends) {
            above += f > id ? 1 : 0;
        }
        rows += 1 + above + inviters.size();
        loadWall(id, graph.resourcesPerMember(), j -> graph.resourceId(index, j));
    }

    private void loadPage(int p) {
        int id = graph.accountId(graph.pageAccount(p));
        Set<Integer> followers = new HashSet<>();
        graph.forEachFollower(p, m -> followers.add(graph.memberId(m)));
        send(st.loadPage.bind(graph.pageName(p), followers, id));
        loadWall(id, graph.resourcesPerPage(), j -> graph.pageResourceId(p, j));
    }

    /** A wall's resources in batches of its partition, then each resource's comments in batches of theirs. */
    private void loadWall(int wall, int count, IntToLongFunction rid) {
        Batcher resources = new Batcher();
        for (int j = 0; j < count; j++) {
            long r = rid.applyAsLong(j);
            String type = graph.resourceType(r);
            String body = graph.resourceBody(r);
            String doc = graph.resourceDoc(r);
            resources.add(
                    st.loadResource.bind(wall, r, wall, type, body, doc),
                    24 + type.length() + body.length() + doc.length());
            rows += graph.isPageResource(r) ? 0 : 1;
        }
        resources.flush();
        int perResource = graph.spec().commentsPerResource();
        if (perResource == 0 || count == 0 || graph.isPageResource(rid.applyAsLong(0))) {
            return;
        }
        for (int j = 0; j < count; j++) {
            long r = rid.applyAsLong(j);
            // Design report: comments are keyed by their own id, so each is its own partition (no batch).
            Batcher comments = report ? null : new Batcher();
            for (int k = 0; k < perResource; k++) {
                long mid = graph.commentId(r, k);
                String content = graph.commentContent(mid);
                int modifier = graph.memberId(graph.commentModifier(mid));
                long ts = graph.commentTimestamp(mid);
                if (report) {
                    send(st.loadComment.bind(mid, r, wall, modifier, ts, content));
                } else {
                    comments.add(st.loadComment.bind(r, mid, wall, modifier, ts, content), 32 + content.length());
                }
                rows++;
            }
            if (comments != null) {
                comments.flush();
            }
        }
    }

    /** Statements of one partition, sent as unlogged batches of at most {@link #BATCH_BYTES}. */
    private final class Batcher {
        private final List<BoundStatement> pending = new ArrayList<>();
        private int bytes;

        void add(BoundStatement s, int size) {
            if (!pending.isEmpty() && (bytes + size > BATCH_BYTES || pending.size() == BATCH_ROWS)) {
                flush();
            }
            pending.add(s);
            bytes += size;
        }

        void flush() {
            if (pending.isEmpty()) {
                return;
            }
            if (pending.size() == 1) {
                send(pending.get(0));
            } else {
                BatchStatementBuilder b = BatchStatement.builder(BatchType.UNLOGGED)
                        .setConsistencyLevel(st.write)
                        .setIdempotence(true);
                pending.forEach(b::addStatement);
                send(b.build());
            }
            pending.clear();
            bytes = 0;
        }
    }

    private void send(Statement<?> s) {
        Throwable failed = failure.get();
        if (failed != null) {
            throw new StoreException("loading into Cassandra failed: " + ErrorText.of(failed), failed);
        }
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("the load was interrupted", e);
        }
        attempt(s, 0);
    }

    /**
     * Sends {@code s}; a write the replicas did not acknowledge in time (or refused as overloaded) is sent again after
     * a pause, up to {@value #TRIES} times: every load statement is idempotent, and on a small machine a cluster at
     * RF 3 falls behind a full window of writes now and then.
     */
    private void attempt(Statement<?> s, int tried) {
        session.executeAsync(s).whenComplete((r, e) -> {
            Throwable cause = e instanceof CompletionException c && c.getCause() != null ? c.getCause() : e;
            if (cause != null && tried + 1 < TRIES && failure.get() == null && retryable(cause)) {
                CompletableFuture.delayedExecutor(50L << tried, TimeUnit.MILLISECONDS)
                        .execute(() -> attempt(s, tried + 1));
                return;
            }
            if (cause != null) {
                failure.compareAndSet(null, cause);
            }
            inFlight.release();
        });
    }

    private static boolean retryable(Throwable e) {
        return e instanceof WriteTimeoutException
                || e instanceof OverloadedException
                || e instanceof DriverTimeoutException
                || e instanceof UnavailableException;
    }

    /** Waits for every write in flight; fails when one of them did. */
    private void drain() {
        try {
            inFlight.acquire(permits);
            inFlight.release(permits);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("the load was interrupted", e);
        }
        Throwable failed = failure.get();
        if (failed != null) {
            throw new StoreException("loading into Cassandra failed: " + ErrorText.of(failed), failed);
        }
    }

    @Override
    public void close() {
        // Nothing of its own: writes still in flight after a failed load are left to the driver.
    }
}
