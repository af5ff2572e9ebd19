package org.bgbench.store.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.function.IntSupplier;
import org.bgbench.store.ErrorText;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;

/**
 * A Cassandra store's exact totals ({@link CassandraStore#counts()}): the token ring split into ranges counted in
 * parallel, a few per node at a time, and a range the server times out on counted again in quarters.
 */
final class CassandraCounts {
    /** Token ranges counted, a few per node at a time. */
    private static final int SPLITS = 256;

    private final CqlSession session;
    private final String ks;
    private final CassandraConfig.Design design;
    private final ConsistencyLevel cl;
    private final IntSupplier firstPageId;

    /**
     * Counts keyspace {@code ks} of a store of {@code design}, reading at {@code cl}; {@code firstPageId} is asked
     * only when there are pages.
     */
    CassandraCounts(
            CqlSession session,
            String ks,
            CassandraConfig.Design design,
            ConsistencyLevel cl,
            IntSupplier firstPageId) {
        this.session = session;
        this.ks = ks;
        this.design = design;
        this.cl = cl;
        this.firstPageId = firstPageId;
    }

    /**
     * Exact totals without one long scan per total: the token ring is split into {@value #SPLITS} ranges
     * counted in parallel, and the member rows are read once for the sizes of their friend, invitation and page sets.
     */
    StoreCounts counts() {
        long[] m = new long[4];
        forEachRange(
                "SELECT userid, friends, pending, pages FROM " + ks + "." + CassandraSchema.MEMBERS
                        + " WHERE token(userid) > ? AND token(userid) <= ?",
                rows -> {
                    long[] part = new long[4];
                    for (Row r : rows) {
                        part[0]++;
                        part[1] += CassandraStore.setSize(r.getBytesUnsafe(1));
                        part[2] += CassandraStore.setSize(r.getBytesUnsafe(2));
                        part[3] += CassandraStore.setSize(r.getBytesUnsafe(3));
                    }
                    return part;
                },
                m);
        long resources = countRows(CassandraSchema.RESOURCES, "walluserid");
        long comments = design == CassandraConfig.Design.REPORT
                ? countRows(CassandraSchema.MANIPULATION, "mid")
                : countRows(CassandraSchema.COMMENTS, "rid");
        long pages = countRows(CassandraSchema.PAGES, "pageid");
        long pageResources = 0;
        if (pages > 0) {
            int first = firstPageId.getAsInt();
            List<CompletableFuture<AsyncResultSet>> f = new ArrayList<>();
            for (int p = 0; p < pages; p++) {
                f.add(session.executeAsync(SimpleStatement.newInstance(
                                        "SELECT COUNT(*) FROM " + ks + "." + CassandraSchema.RESOURCES
                                                + " WHERE walluserid = ?",
                                        first + p)
                                .setConsistencyLevel(cl))
                        .toCompletableFuture());
            }
            for (CompletableFuture<AsyncResultSet> x : f) {
                pageResources += CassandraStore.join(x).one().getLong(0);
            }
        }
        long shares = countRows(CassandraSchema.SHARES, "sharer");
        return new StoreCounts(
                new StoreCounts.Social(m[0], m[1] / 2, m[2], resources - pageResources, comments),
                new StoreCounts.Feed(pages, m[3], pageResources, shares));
    }

    private long countRows(String table, String key) {
        long[] total = new long[1];
        forEachRange(
                "SELECT COUNT(*) FROM " + ks + "." + table + " WHERE token(" + key + ") > ? AND token(" + key
                        + ") <= ?",
                rows -> new long[] {rows.one().getLong(0)},
                total);
        return total[0];
    }

    /** Runs {@code cql} (two bind markers: a token range) over every range in parallel and adds up the sums. */
    private void forEachRange(String cql, Function<ResultSet, long[]> sum, long[] into) {
        try (var ranges = Executors.newVirtualThreadPerTaskExecutor()) {
            forEachRange(cql, sum, into, ranges);
        }
    }

    private void forEachRange(String cql, Function<ResultSet, long[]> sum, long[] into, ExecutorService ranges) {
        var prepared = session.prepare(cql);
        // A few ranges per node at a time: all at once overload a small node into read timeouts.
        int nodes = Math.max(1, session.getMetadata().getNodes().size());
        Semaphore running = new Semaphore(Math.min(32, 4 * nodes));
        List<Future<long[]>> parts = new ArrayList<>();
        long step = 1L << (64 - Integer.numberOfTrailingZeros(SPLITS));
        for (int i = 0; i < SPLITS; i++) {
            long from = Long.MIN_VALUE + i * step;
            long to = i == SPLITS - 1 ? Long.MAX_VALUE : from + step;
            // Paging through a range blocks: one virtual thread per range.
            parts.add(ranges.submit(() -> {
                running.acquire();
                try {
                    return countRange(prepared, sum, from, to, 0);
                } finally {
                    running.release();
                }
            }));
        }
        try {
            for (Future<long[]> p : parts) {
                long[] v = p.get();
                for (int i = 0; i < into.length; i++) {
                    into[i] += v[i];
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new StoreException("counting " + cql + " failed: " + ErrorText.of(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while counting", e);
        } finally {
            parts.forEach(p -> p.cancel(true));
        }
    }

    /** The sums of one token range (from, to]; a range the server times out on is counted again in quarters. */
    private long[] countRange(
            PreparedStatement prepared, Function<ResultSet, long[]> sum, long from, long to, int depth) {
        try {
            return sum.apply(session.execute(
                    prepared.bind(from, to).setConsistencyLevel(cl).setTimeout(CassandraStore.DDL_TIMEOUT)));
        } catch (ReadTimeoutException | DriverTimeoutException e) {
            long quarter = (to - from) / 4;
            if (depth == 3 || quarter == 0) {
                throw new StoreException(
                        "counting rows timed out even in ranges of 1/" + (SPLITS << 6) + " of the ring: "
                                + ErrorText.message(e),
                        e);
            }
            long[] total = null;
            for (int q = 0; q < 4; q++) {
                long a = from + q * quarter;
                long b = q == 3 ? to : a + quarter;
                long[] v = countRange(prepared, sum, a, b, depth + 1);
                if (total == null) {
                    total = v;
                } else {
                    for (int i = 0; i < v.length; i++) {
                        total[i] += v[i];
                    }
                }
            }
            return total;
        }
    }
}
