package org.bgbench.store.hbase;

import static org.bgbench.store.hbase.HBaseSchema.A;
import static org.bgbench.store.hbase.HBaseSchema.F;
import static org.bgbench.store.hbase.HBaseSchema.G;
import static org.bgbench.store.hbase.HBaseSchema.S;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.store.FeedList;

/** Pull's View News Feed over a session's tables: the k newest shares its friends and followed pages let it see. */
final class PullFeed {
    /** Gets rows the way the session's fetch setting says: one multi-get or one get each. */
    interface Fetcher {
        Result[] fetch(Table t, List<Get> gets) throws IOException;
    }

    private final Table confirmed;
    private final Table shares;
    private final Table resources;
    private final Fetcher fetcher;

    PullFeed(Table confirmed, Table shares, Table resources, Fetcher fetcher) {
        this.confirmed = confirmed;
        this.shares = shares;
        this.resources = resources;
        this.fetcher = fetcher;
    }

    /** A share a producer holds, for Pull's top k. */
    private record Candidate(long shareId, int sharer, long rid) {}

    /**
     * Pull (figure 8.11): the member's friends and followed pages (one get), every producer's k newest shares (one
     * multi-get), a producer's whole row only when some of its k newest listed others; then the top k's resources.
     */
    void read(int member, int k, FeedList out) throws IOException {
        Cell[] followed = confirmed
                .get(new Get(HBaseSchema.id(member)).addFamily(F).addFamily(G).setFilter(new KeyOnlyFilter()))
                .rawCells();
        if (followed.length == 0) {
            return;
        }
        int[] producers = new int[followed.length];
        List<Get> gets = new ArrayList<>(followed.length);
        for (int i = 0; i < followed.length; i++) {
            producers[i] = Bytes.toInt(followed[i].getQualifierArray(), followed[i].getQualifierOffset());
            gets.add(new Get(HBaseSchema.id(producers[i])).addFamily(S).setFilter(new ColumnPaginationFilter(k, 0)));
        }
        Result[] newest = fetcher.fetch(shares, gets);
        List<Candidate> top = new ArrayList<>(k + 1);
        for (int i = 0; i < producers.length; i++) {
            Cell[] cells = newest[i].rawCells();
            int visible = 0;
            for (Cell c : cells) {
                visible += ShareCodec.visible(c, member) ? 1 : 0;
            }
            if (cells.length == k && visible < k) {
                // Some of its k newest were for others: older ones may still make the top k.
                cells = shares.get(new Get(HBaseSchema.id(producers[i])).addFamily(S))
                        .rawCells();
            }
            for (Cell c : cells) {
                long id = HBaseSchema.fromNewestFirst(c.getQualifierArray(), c.getQualifierOffset());
                if (top.size() == k && id < top.get(k - 1).shareId) {
                    break;
                }
                if (ShareCodec.visible(c, member)) {
                    offer(top, new Candidate(id, producers[i], ShareCodec.rid(c)), k);
                }
            }
        }
        List<Get> res = new ArrayList<>(top.size());
        for (Candidate c : top) {
            res.add(new Get(HBaseSchema.rid(c.rid)).addFamily(A));
        }
        Result[] rows = fetcher.fetch(resources, res);
        for (int i = 0; i < top.size(); i++) {
            Candidate c = top.get(i);
            FeedList.Row row = out.add(c.shareId);
            row.sharerId = c.sharer;
            row.resourceId = c.rid;
            HBaseSession.resourceContent(rows[i], row);
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
}
