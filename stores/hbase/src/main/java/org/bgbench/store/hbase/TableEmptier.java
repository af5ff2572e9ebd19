package org.bgbench.store.hbase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.bgbench.store.StoreException;

/** Deletes every row of small tables, all tables at once: what reusing the tables of a small graph costs. */
final class TableEmptier {
    private static final int BATCH = 1000;

    private final HBaseStore store;

    TableEmptier(HBaseStore store) {
        this.store = store;
    }

    void empty(List<String> tables) {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Void>> done = new ArrayList<>();
            for (String t : tables) {
                done.add(pool.submit(() -> {
                    empty(t);
                    return null;
                }));
            }
            for (Future<Void> f : done) {
                f.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StoreException s) {
                throw s;
            }
            throw new StoreException("emptying BG's tables failed: " + HBaseStore.cause(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while emptying BG's tables", e);
        }
    }

    private void empty(String table) {
        try (Table t = store.open(table);
                ResultScanner rows = t.getScanner(
                        new Scan().setFilter(new FirstKeyOnlyFilter()).setCaching(BATCH))) {
            List<Delete> batch = new ArrayList<>(BATCH);
            for (Result r : rows) {
                batch.add(new Delete(r.getRow()));
                if (batch.size() == BATCH) {
                    t.delete(batch);
                    batch = new ArrayList<>(BATCH);
                }
            }
            if (!batch.isEmpty()) {
                t.delete(batch);
            }
        } catch (IOException e) {
            throw new StoreException("emptying " + store.table(table) + " failed: " + HBaseStore.cause(e), e);
        }
    }
}
