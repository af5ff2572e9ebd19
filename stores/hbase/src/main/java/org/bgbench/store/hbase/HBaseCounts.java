package org.bgbench.store.hbase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;

/**
 * Exact totals for the load's sanity check: every table scanned region by region, a few regions at a time, values left
 * on the server where only rows or columns are counted.
 */
final class HBaseCounts {
    /** Regions scanned at once (a standalone server has one region server on a busy machine). */
    private static final int PARALLEL = 4;

    private static final int CACHING = 2000;

    private final HBaseStore store;
    private final int firstPage;

    HBaseCounts(HBaseStore store, int firstPage) {
        this.store = store;
        this.firstPage = firstPage;
    }

    /** What one region's scan adds up: [0] rows or cells, [1] a second sum. */
    private interface Summer {
        void add(Result r, long[] into);
    }

    StoreCounts count() {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Semaphore running = new Semaphore(PARALLEL);
            Future<long[]> members = sum(pool, running, HBaseSchema.MEMBERS, rowsOnly(HBaseSchema.A), (r, s) -> s[0]++);
            Future<long[]> confirmed = sum(
                    pool,
                    running,
                    HBaseSchema.CONFIRMED,
                    new Scan().addFamily(HBaseSchema.F).addFamily(HBaseSchema.G).setFilter(new KeyOnlyFilter()),
                    (r, s) -> {
                        for (Cell c : r.rawCells()) {
                            s[CellUtil.matchingFamily(c, HBaseSchema.F) ? 0 : 1]++;
                        }
                    });
            Future<long[]> pending = sum(
                    pool,
                    running,
                    HBaseSchema.PENDING,
                    new Scan().addFamily(HBaseSchema.F).setFilter(new KeyOnlyFilter()),
                    (r, s) -> s[0] += r.size());
            Future<long[]> resources = sum(
                    pool,
                    running,
                    HBaseSchema.RESOURCES,
                    new Scan().addColumn(HBaseSchema.A, HBaseSchema.WALL_OWNER),
                    (r, s) -> {
                        byte[] w = r.getValue(HBaseSchema.A, HBaseSchema.WALL_OWNER);
                        s[w != null && Bytes.toInt(w) >= firstPage ? 1 : 0]++;
                    });
            Future<long[]> comments =
                    sum(pool, running, HBaseSchema.MANIPULATIONS, rowsOnly(HBaseSchema.A), (r, s) -> s[0]++);
            Future<long[]> pages = sum(pool, running, HBaseSchema.PAGES, rowsOnly(HBaseSchema.A), (r, s) -> s[0]++);
            Future<long[]> shares = sum(
                    pool,
                    running,
                    HBaseSchema.SHARES,
                    new Scan().addFamily(HBaseSchema.S).setFilter(new KeyOnlyFilter()),
                    (r, s) -> s[0] += r.size());
            long[] c = confirmed.get();
            long[] res = resources.get();
            return new StoreCounts(
                    new StoreCounts.Social(members.get()[0], c[0] / 2, pending.get()[0], res[0], comments.get()[0]),
                    new StoreCounts.Feed(pages.get()[0], c[1], res[1], shares.get()[0]));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof StoreException s) {
                throw s;
            }
            throw new StoreException("counting BG's rows in HBase failed: " + HBaseStore.cause(cause), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while counting", e);
        }
    }

    private static Scan rowsOnly(byte[] family) {
        return new Scan().addFamily(family).setFilter(new FirstKeyOnlyFilter());
    }

    /** Sums {@code table} region by region (each region a task; at most {@link #PARALLEL} scanning). */
    private Future<long[]> sum(ExecutorService pool, Semaphore running, String table, Scan scan, Summer summer) {
        return pool.submit(() -> {
            byte[][] starts;
            byte[][] ends;
            try (RegionLocator l = store.connection().getRegionLocator(store.table(table))) {
                starts = l.getStartKeys();
                ends = l.getEndKeys();
            }
            List<Future<long[]>> parts = new ArrayList<>();
            for (int i = 0; i < starts.length; i++) {
                Scan s = new Scan(scan)
                        .withStartRow(starts[i])
                        .withStopRow(ends[i])
                        .setCaching(CACHING)
                        .setCacheBlocks(false);
                parts.add(pool.submit(() -> {
                    running.acquire();
                    try (Table t = store.open(table);
                            ResultScanner rs = t.getScanner(s)) {
                        long[] into = new long[2];
                        for (Result r : rs) {
                            summer.add(r, into);
                        }
                        return into;
                    } catch (IOException e) {
                        throw new StoreException(
                                "counting " + store.table(table) + " failed: " + HBaseStore.cause(e), e);
                    } finally {
                        running.release();
                    }
                }));
            }
            long[] total = new long[2];
            for (Future<long[]> p : parts) {
                long[] v = p.get();
                total[0] += v[0];
                total[1] += v[1];
            }
            return total;
        });
    }
}
