package org.bgbench.store.hbase;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.store.FeedList;

/**
 * The values of share and feed columns. A share: the resource id (8 bytes), 1 when shared with every friend or
 * follower (else 0), then the recipients' ids (4 bytes each). A feed entry: the sharer (4 bytes), the resource id (8
 * bytes), then in Push Content the resource's type, body and doc, each as a 4-byte length and UTF-8 bytes.
 */
final class ShareCodec {
    private ShareCodec() {}

    static byte[] share(long rid, int[] recipients) {
        int n = recipients == null ? 0 : recipients.length;
        byte[] v = new byte[9 + 4 * n];
        Bytes.putLong(v, 0, rid);
        v[8] = (byte) (recipients == null ? 1 : 0);
        for (int i = 0; i < n; i++) {
            Bytes.putInt(v, 9 + 4 * i, recipients[i]);
        }
        return v;
    }

    static long rid(Cell share) {
        return Bytes.toLong(share.getValueArray(), share.getValueOffset());
    }

    /** Whether {@code viewer} may see the share: it is public or lists her. */
    static boolean visible(Cell share, int viewer) {
        byte[] a = share.getValueArray();
        int off = share.getValueOffset();
        if (a[off + 8] == 1) {
            return true;
        }
        for (int p = off + 9, end = off + share.getValueLength(); p + 4 <= end; p += 4) {
            if (Bytes.toInt(a, p) == viewer) {
                return true;
            }
        }
        return false;
    }

    static byte[] entry(int sharer, long rid, byte[] type, byte[] body, byte[] doc) {
        if (type == null && body == null && doc == null) {
            byte[] v = new byte[12];
            Bytes.putInt(v, 0, sharer);
            Bytes.putLong(v, 4, rid);
            return v;
        }
        byte[] t = orEmpty(type);
        byte[] b = orEmpty(body);
        byte[] d = orEmpty(doc);
        byte[] v = new byte[12 + 12 + t.length + b.length + d.length];
        Bytes.putInt(v, 0, sharer);
        Bytes.putLong(v, 4, rid);
        int p = 12;
        for (byte[] s : new byte[][] {t, b, d}) {
            Bytes.putInt(v, p, s.length);
            System.arraycopy(s, 0, v, p + 4, s.length);
            p += 4 + s.length;
        }
        return v;
    }

    private static byte[] orEmpty(byte[] b) {
        return b == null ? new byte[0] : b;
    }

    static int entrySharer(Cell c) {
        return Bytes.toInt(c.getValueArray(), c.getValueOffset());
    }

    static long entryRid(Cell c) {
        return Bytes.toLong(c.getValueArray(), c.getValueOffset() + 4);
    }

    /** Push Content: the copied type, body and doc (null when the entry holds none). */
    static void entryContent(Cell c, FeedList.Row row) {
        byte[] a = c.getValueArray();
        int p = c.getValueOffset() + 12;
        int end = c.getValueOffset() + c.getValueLength();
        String[] s = new String[3];
        for (int i = 0; i < 3 && p + 4 <= end; i++) {
            int len = Bytes.toInt(a, p);
            s[i] = new String(a, p + 4, len, StandardCharsets.UTF_8);
            p += 4 + len;
        }
        row.type = s[0];
        row.body = s[1];
        row.doc = s[2];
    }
}
