package org.bgbench.store.casql;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;

/**
 * Compact binary form of the read actions' results, as the client-server caches store them. Every entry starts with a
 * tag byte naming its kind; numbers are zig-zag varints; strings (UTF-8) and byte arrays are prefixed by their length
 * plus one, 0 standing for null.
 *
 * <pre>
 * profile   'P' attributeCount attribute* image friendCount resourceCount pendingCount
 * members   'M' attributeCount rowCount (memberId attribute* thumbnail)*
 * resources 'R' rowCount (resourceId creatorId wallUserId type body doc)*
 * comments  'C' rowCount (commentId resourceId creatorId modifierId timestampMs type content)*
 * feed      'F' k rowCount (shareId resourceId sharerId type body doc)*   (k: the VNF it was filled for)
 * lease     'L' token                      (a reader's claim on a missing key, never decoded as a result)
 * </pre>
 *
 * <p>One instance per session: the encode buffer and the decode position are reused across calls, so an encode
 * allocates only the returned array and a decode only the strings and arrays it fills the view with.
 */
final class ViewCodec {
    static final byte PROFILE = 'P';
    static final byte MEMBERS = 'M';
    static final byte RESOURCES = 'R';
    static final byte COMMENTS = 'C';
    static final byte FEED = 'F';
    static final byte LEASE = 'L';

    private byte[] buf = new byte[512];
    private int len;
    private byte[] in;
    private int pos;

    /** Whether {@code entry} is a lease marker rather than a cached result. */
    static boolean isLease(byte[] entry) {
        return entry.length > 0 && entry[0] == LEASE;
    }

    byte[] encode(ProfileView v) {
        start(PROFILE);
        writeInt(v.attributes.count());
        for (int a = 0; a < v.attributes.count(); a++) {
            writeString(v.attributes.get(a));
        }
        writeBytes(v.profileImage);
        writeInt(v.friendCount);
        writeInt(v.resourceCount);
        writeInt(v.pendingCount);
        return finish();
    }

    byte[] encode(MemberList list) {
        start(MEMBERS);
        int n = list.size();
        int attributes = n == 0 ? 0 : list.get(0).attributes.count();
        writeInt(attributes);
        writeInt(n);
        for (int i = 0; i < n; i++) {
            MemberList.Row r = list.get(i);
            writeInt(r.memberId);
            for (int a = 0; a < attributes; a++) {
                writeString(r.attributes.get(a));
            }
            writeBytes(r.thumbnail);
        }
        return finish();
    }

    byte[] encode(ResourceList list) {
        start(RESOURCES);
        int n = list.size();
        writeInt(n);
        for (int i = 0; i < n; i++) {
            ResourceList.Row r = list.get(i);
            writeLong(r.resourceId);
            writeInt(r.creatorId);
            writeInt(r.wallUserId);
            writeString(r.type);
            writeString(r.body);
            writeString(r.doc);
        }
        return finish();
    }

    byte[] encode(CommentList list) {
        start(COMMENTS);
        int n = list.size();
        writeInt(n);
        for (int i = 0; i < n; i++) {
            CommentList.Row r = list.get(i);
            writeLong(r.commentId);
            writeLong(r.resourceId);
            writeInt(r.creatorId);
            writeInt(r.modifierId);
            writeLong(r.timestampMs);
            writeString(r.type);
            writeString(r.content);
        }
        return finish();
    }

    /** A feed entry of a VNF with {@code k}: it can serve any VNF whose k it covers ({@link #decode(byte[], int, FeedList)}). */
    byte[] encode(int k, FeedList list) {
        start(FEED);
        writeInt(k);
        int n = list.size();
        writeInt(n);
        for (int i = 0; i < n; i++) {
            FeedList.Row r = list.get(i);
            writeLong(r.shareId);
            writeLong(r.resourceId);
            writeInt(r.sharerId);
            writeString(r.type);
            writeString(r.body);
            writeString(r.doc);
        }
        return finish();
    }

    /** Fills {@code out} (cleared first) from a profile entry; the member id is the caller's to set. */
    void decode(byte[] entry, ProfileView out) {
        begin(entry, PROFILE);
        out.clear();
        int attributes = readCount();
        for (int a = 0; a < attributes; a++) {
            String s = readString();
            if (a < out.attributes.count()) {
                out.attributes.set(a, s);
            }
        }
        out.profileImage = readBytes();
        out.friendCount = readInt();
        out.resourceCount = readInt();
        out.pendingCount = readInt();
        end();
    }

    void decode(byte[] entry, MemberList out) {
        begin(entry, MEMBERS);
        out.clear();
        int attributes = readCount();
        int n = readCount();
        for (int i = 0; i < n; i++) {
            MemberList.Row r = out.add(readInt());
            for (int a = 0; a < attributes; a++) {
                String s = readString();
                if (a < r.attributes.count()) {
                    r.attributes.set(a, s);
                }
            }
            r.thumbnail = readBytes();
        }
        end();
    }

    void decode(byte[] entry, ResourceList out) {
        begin(entry, RESOURCES);
        out.clear();
        int n = readCount();
        for (int i = 0; i < n; i++) {
            ResourceList.Row r = out.add(readLong());
            r.creatorId = readInt();
            r.wallUserId = readInt();
            r.type = readString();
            r.body = readString();
            r.doc = readString();
        }
        end();
    }

    void decode(byte[] entry, CommentList out) {
        begin(entry, COMMENTS);
        out.clear();
        int n = readCount();
        for (int i = 0; i < n; i++) {
            CommentList.Row r = out.add(readLong());
            r.resourceId = readLong();
            r.creatorId = readInt();
            r.modifierId = readInt();
            r.timestampMs = readLong();
            r.type = readString();
            r.content = readString();
        }
        end();
    }

    /**
     * Fills {@code out} (cleared first) with the first {@code k} rows of a feed entry and returns true, or returns
     * false (leaving {@code out} cleared) when the entry cannot answer a VNF with {@code k}: it was filled for a
     * smaller k and holds that many rows, so rows beyond them may exist. The top k of a feed are a prefix of its top
     * k' for k &lt;= k', and a feed with fewer rows than its k is complete.
     */
    boolean decode(byte[] entry, int k, FeedList out) {
        begin(entry, FEED);
        out.clear();
        int filledFor = readInt();
        int n = readCount();
        if (filledFor < 0 || n > filledFor) {
            in = null;
            throw new IllegalArgumentException("feed entry with " + n + " rows for k=" + filledFor);
        }
        if (filledFor < k && n == filledFor) {
            in = null;
            return false;
        }
        int take = Math.min(n, k);
        for (int i = 0; i < take; i++) {
            FeedList.Row r = out.add(readLong());
            r.resourceId = readLong();
            r.sharerId = readInt();
            r.type = readString();
            r.body = readString();
            r.doc = readString();
        }
        if (take == n) {
            end();
        } else {
            // Rows past k are not decoded (nor checked): the caller asked for fewer.
            in = null;
        }
        return true;
    }

    // ---- writing

    private void start(byte tag) {
        len = 0;
        ensure(1);
        buf[len++] = tag;
    }

    private byte[] finish() {
        byte[] out = Arrays.copyOf(buf, len);
        if (buf.length > 1 << 20) {
            // Do not keep a huge buffer alive for the rest of the session after one large entry.
            buf = new byte[512];
        }
        return out;
    }

    private void writeInt(int v) {
        writeVarint(((v << 1) ^ (v >> 31)) & 0xffffffffL);
    }

    private void writeLong(long v) {
        writeVarint((v << 1) ^ (v >> 63));
    }

    /** Unsigned LEB128. */
    private void writeVarint(long v) {
        ensure(10);
        while ((v & ~0x7fL) != 0) {
            buf[len++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
    }

    private void writeBytes(byte[] b) {
        if (b == null) {
            writeVarint(0);
            return;
        }
        writeVarint(b.length + 1L);
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    /** UTF-8 straight into the buffer; a lone surrogate becomes '?' as String.getBytes does. */
    private void writeString(String s) {
        if (s == null) {
            writeVarint(0);
            return;
        }
        int n = s.length();
        int bytes = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes++;
            } else {
                bytes += 3;
            }
        }
        writeVarint(bytes + 1L);
        ensure(bytes);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                buf[len++] = (byte) c;
            } else if (c < 0x800) {
                buf[len++] = (byte) (0xc0 | (c >> 6));
                buf[len++] = (byte) (0x80 | (c & 0x3f));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                buf[len++] = (byte) (0xf0 | (cp >> 18));
                buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                buf[len++] = (byte) (0x80 | (cp & 0x3f));
            } else if (Character.isSurrogate(c)) {
                buf[len++] = '?';
            } else {
                buf[len++] = (byte) (0xe0 | (c >> 12));
                buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                buf[len++] = (byte) (0x80 | (c & 0x3f));
            }
        }
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    // ---- reading

    private void begin(byte[] entry, byte tag) {
        if (entry.length == 0 || entry[0] != tag) {
            throw new IllegalArgumentException("expected an entry of kind '" + (char) tag + "', found "
                    + (entry.length == 0 ? "an empty value" : "kind 0x" + Integer.toHexString(entry[0] & 0xff)));
        }
        in = entry;
        pos = 1;
    }

    private void end() {
        boolean complete = pos == in.length;
        in = null;
        if (!complete) {
            throw new IllegalArgumentException("entry has trailing bytes");
        }
    }

    private int readInt() {
        long v = readVarint();
        if (v >>> 32 != 0) {
            throw new IllegalArgumentException("number out of range");
        }
        int u = (int) v;
        return (u >>> 1) ^ -(u & 1);
    }

    private long readLong() {
        long v = readVarint();
        return (v >>> 1) ^ -(v & 1);
    }

    /** A count: a non-negative int no larger than the bytes left could hold. */
    private int readCount() {
        int n = readInt();
        if (n < 0 || n > in.length - pos) {
            throw new IllegalArgumentException("bad count " + n);
        }
        return n;
    }

    private long readVarint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= in.length) {
                throw new IllegalArgumentException("entry ends inside a number");
            }
            byte b = in[pos++];
            v |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new IllegalArgumentException("number too long");
    }

    /** Length + 1 of a string or array, or 0 for null; checked against the bytes left. */
    private int readLength() {
        long v = readVarint();
        if (v > in.length - pos + 1L) {
            throw new IllegalArgumentException("length " + (v - 1) + " beyond the end of the entry");
        }
        return (int) v;
    }

    private String readString() {
        int l = readLength();
        if (l == 0) {
            return null;
        }
        String s = new String(in, pos, l - 1, StandardCharsets.UTF_8);
        pos += l - 1;
        return s;
    }

    private byte[] readBytes() {
        int l = readLength();
        if (l == 0) {
            return null;
        }
        byte[] b = Arrays.copyOfRange(in, pos, pos + l - 1);
        pos += l - 1;
        return b;
    }
}
