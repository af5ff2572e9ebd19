package org.bgbench.store.hbase;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.model.GraphSpec;

/**
 * BG's tables in HBase: the six tables of the scalability paper's figure 5 (section D.1), plus the tables feed following
 * needs and BG's own record. Row keys and qualifiers are fixed-width big-endian numbers, so HBase's byte order is their
 * numeric order: a wall's resource ids are stored as {@code Long.MAX_VALUE - rid}, so a wall row lists its newest
 * resources first and View Top-K Resources reads its first k columns.
 *
 * <pre>
 * members        row userid   a: attributes (qualifier = attribute index, one byte); Manual also fc, pc, rc (8-byte
 *                             counts: friends, pending invitations, wall resources)   t: thumbnail   p: profile image
 * confirmed      row userid   f: one column per friend (qualifier friend id)   g: one per followed page
 * pending        row invitee  f: one column per inviter
 * wall           row userid   r: one column per resource on the wall (qualifier MAX - rid)
 * resources      row rid      a: c creator, w wall, t type, b body, d doc   m: one column per comment (qualifier mid)
 * manipulations  row rid+mid  a: c creator, m modifier, s timestamp, t type, x content
 * pages          row pageid   a: n name   f: one column per follower
 * shares         row sharer   s: one column per share (qualifier MAX - shareid): rid, public flag, recipients
 * feeds          row member   f: one column per feed entry (push designs only): sharer, rid[, type, body, doc]
 * meta           row "bg"     m: graph, mark, design, members, offset, rows (the graph's estimated rows)
 * </pre>
 */
final class HBaseSchema {
    static final String MEMBERS = "members";
    static final String CONFIRMED = "confirmed";
    static final String PENDING = "pending";
    static final String WALL = "wall";
    static final String RESOURCES = "resources";
    static final String MANIPULATIONS = "manipulations";
    static final String PAGES = "pages";
    static final String SHARES = "shares";
    static final String FEEDS = "feeds";
    static final String META = "meta";

    static final byte[] A = b("a");
    static final byte[] T = b("t");
    static final byte[] P = b("p");
    static final byte[] F = b("f");
    static final byte[] G = b("g");
    static final byte[] R = b("r");
    static final byte[] M = b("m");
    static final byte[] S = b("s");

    /** Manual's counts in the member row. */
    static final byte[] FRIEND_COUNT = b("fc");

    static final byte[] PENDING_COUNT = b("pc");
    static final byte[] RESOURCE_COUNT = b("rc");
    /** The single-column qualifiers of thumbnail, profile image, and the resource and comment attributes. */
    static final byte[] IMAGE = b("i");

    static final byte[] CREATOR = b("c");
    static final byte[] WALL_OWNER = b("w");
    static final byte[] TYPE = b("t");
    static final byte[] BODY = b("b");
    static final byte[] DOC = b("d");
    static final byte[] MODIFIER = b("m");
    static final byte[] STAMP = b("s");
    static final byte[] CONTENT = b("x");
    static final byte[] NAME = b("n");

    static final byte[] META_ROW = b("bg");
    static final byte[] GRAPH = b("graph");
    static final byte[] MARK = b("mark");
    static final byte[] DESIGN = b("design");
    static final byte[] MEMBER_COUNT = b("members");
    static final byte[] OFFSET = b("offset");
    static final byte[] ROWS = b("rows");

    /** Attribute qualifiers: one byte each (a cell repeats its qualifier, so short ones keep rows small). */
    private static final byte[][] ATTRIBUTE = new byte[GraphSpec.MAX_ATTRIBUTES][];

    static {
        for (int i = 0; i < ATTRIBUTE.length; i++) {
            ATTRIBUTE[i] = new byte[] {(byte) i};
        }
    }

    private HBaseSchema() {}

    static byte[] attribute(int i) {
        return ATTRIBUTE[i];
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] id(int id) {
        return Bytes.toBytes(id);
    }

    static byte[] rid(long rid) {
        return Bytes.toBytes(rid);
    }

    /** A wall column: newest resource first. */
    static byte[] wallColumn(long rid) {
        return Bytes.toBytes(Long.MAX_VALUE - rid);
    }

    static long wallRid(byte[] q, int offset) {
        return Long.MAX_VALUE - Bytes.toLong(q, offset);
    }

    /** A share column of the shares table and of a sorted-push feed: newest share first. */
    static byte[] newestFirst(long shareId) {
        return Bytes.toBytes(Long.MAX_VALUE - shareId);
    }

    static long fromNewestFirst(byte[] q, int offset) {
        return Long.MAX_VALUE - Bytes.toLong(q, offset);
    }

    static byte[] comment(long rid, long mid) {
        return Bytes.add(Bytes.toBytes(rid), Bytes.toBytes(mid));
    }

    /** The tables of a configuration, in creation order (without the prefix). */
    static List<String> tables(HBaseConfig c) {
        List<String> t = new ArrayList<>(
                List.of(META, MEMBERS, CONFIRMED, PENDING, WALL, RESOURCES, MANIPULATIONS, PAGES, SHARES));
        if (c.feed().push()) {
            t.add(FEEDS);
        }
        return t;
    }

    static TableName name(HBaseConfig c, String table) {
        return TableName.valueOf(c.prefix() + table);
    }

    static byte[][] families(String table) {
        return switch (table) {
            case MEMBERS -> new byte[][] {A, T, P};
            case CONFIRMED -> new byte[][] {F, G};
            case PENDING, FEEDS -> new byte[][] {F};
            case WALL -> new byte[][] {R};
            case RESOURCES -> new byte[][] {A, M};
            case MANIPULATIONS -> new byte[][] {A};
            case PAGES -> new byte[][] {A, F};
            case SHARES -> new byte[][] {S};
            case META -> new byte[][] {M};
            default -> throw new IllegalArgumentException(table);
        };
    }

    static TableDescriptor descriptor(HBaseConfig c, String table) {
        TableDescriptorBuilder t = TableDescriptorBuilder.newBuilder(name(c, table));
        for (byte[] f : families(table)) {
            // One version: BG never reads an older value. New version behaviour: a delete masks only what was written
            // before it, not a put that comes later in the same millisecond (an IF right after an RFR of the same
            // pair, a reload right after the rows were deleted), which HBase's default lets a delete hide.
            t.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(f)
                    .setMaxVersions(1)
                    .setNewVersionBehavior(true)
                    .build());
        }
        return t.build();
    }

    /** Split keys of {@code table} into {@code c.regions()} ranges of its row keys for {@code spec}; null for one. */
    static byte[][] splits(HBaseConfig c, String table, GraphSpec spec, long totalResources, int accounts) {
        int n = c.regions();
        if (n <= 1) {
            return null;
        }
        return switch (table) {
            case MEMBERS, CONFIRMED, PENDING, WALL, SHARES, FEEDS -> {
                // Member (and, for walls and shares, page) ids.
                long lo = spec.memberIdOffset();
                long span = table.equals(WALL) || table.equals(SHARES) ? accounts : spec.members();
                yield evenSplits(n, lo, span, 4);
            }
            case RESOURCES, MANIPULATIONS -> evenSplits(n, 0, totalResources, 8);
            default -> null;
        };
    }

    private static byte[][] evenSplits(int n, long lo, long span, int width) {
        if (span < n) {
            return null;
        }
        byte[][] keys = new byte[n - 1][];
        for (int i = 1; i < n; i++) {
            long k = lo + span * i / n;
            keys[i - 1] = width == 4 ? Bytes.toBytes((int) k) : Bytes.toBytes(k);
        }
        return keys;
    }
}
