package org.bgbench.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.store.FeedList;
import org.junit.jupiter.api.Test;

/** The share and feed column values, read back from cells whose value sits inside a larger array (as HBase's do). */
class ShareCodecTest {
    private static Cell cell(byte[] value) {
        return new KeyValue(Bytes.toBytes(7), HBaseSchema.S, HBaseSchema.newestFirst(42), value);
    }

    @Test
    void aPublicShareIsVisibleToAnyone() {
        Cell c = cell(ShareCodec.share(123_456_789_012L, null));
        assertThat(ShareCodec.rid(c)).isEqualTo(123_456_789_012L);
        assertThat(ShareCodec.visible(c, 1)).isTrue();
        assertThat(ShareCodec.visible(c, 99)).isTrue();
    }

    @Test
    void aListedShareIsVisibleToItsRecipientsOnly() {
        Cell c = cell(ShareCodec.share(5, new int[] {3, 1_000_000, 17}));
        assertThat(ShareCodec.rid(c)).isEqualTo(5);
        assertThat(ShareCodec.visible(c, 3)).isTrue();
        assertThat(ShareCodec.visible(c, 17)).isTrue();
        assertThat(ShareCodec.visible(c, 1_000_000)).isTrue();
        assertThat(ShareCodec.visible(c, 4)).isFalse();
        assertThat(ShareCodec.visible(cell(ShareCodec.share(5, new int[0])), 3)).isFalse();
    }

    @Test
    void feedEntriesCarrySharerResourceAndContent() {
        Cell ref = cell(ShareCodec.entry(11, 99L, null, null, null));
        assertThat(ShareCodec.entrySharer(ref)).isEqualTo(11);
        assertThat(ShareCodec.entryRid(ref)).isEqualTo(99L);
        assertThat(ref.getValueLength()).isEqualTo(12);

        Cell content =
                cell(ShareCodec.entry(12, 100L, Bytes.toBytes("photo"), Bytes.toBytes("bödy"), Bytes.toBytes("")));
        FeedList.Row row = new FeedList().add(1);
        ShareCodec.entryContent(content, row);
        assertThat(ShareCodec.entrySharer(content)).isEqualTo(12);
        assertThat(ShareCodec.entryRid(content)).isEqualTo(100L);
        assertThat(row.type).isEqualTo("photo");
        assertThat(row.body).isEqualTo("bödy");
        assertThat(row.doc).isEmpty();
    }

    @Test
    void newestFirstColumnsSortNewestFirstAndRoundTrip() {
        assertThat(Bytes.compareTo(HBaseSchema.newestFirst(10), HBaseSchema.newestFirst(9)))
                .isNegative();
        assertThat(HBaseSchema.fromNewestFirst(HBaseSchema.newestFirst(1L << 40), 0))
                .isEqualTo(1L << 40);
    }
}
