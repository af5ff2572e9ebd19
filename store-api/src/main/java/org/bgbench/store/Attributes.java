package org.bgbench.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A member's profile attributes as a read action returns them, reused across calls. A store sets each attribute
 * either as a String or as the UTF-8 bytes it received ({@link #setUtf8}), which are decoded only when someone asks
 * for the String ({@link #get}). BG itself validates ids and counts, not attribute text, so a run that nobody reads
 * the attributes of never pays for building Strings: List Friends returns ~1,100 of them per call, and building them
 * was a quarter of BG's CPU in that action against PostgreSQL. YCSB's {@code ByteIterator} makes the same choice.
 * Not thread-safe, like the views that hold it.
 */
public final class Attributes {
    /** Kinds of attribute: none (or a String in {@link #text}), or its own bytes. */
    private static final byte NONE = 0;

    private static final byte OWN = 1;

    /** A String set or decoded. */
    private final String[] text;

    private final byte[] kind;
    /** Kind OWN: the attribute's array and where its bytes sit in it. */
    private final byte[][] utf8;

    private final int[] offset;
    private final int[] length;

    public Attributes(int count) {
        text = new String[count];
        kind = new byte[count];
        utf8 = new byte[count][];
        offset = new int[count];
        length = new int[count];
    }

    /** How many attributes the view holds (the graph's attribute count). */
    public int count() {
        return text.length;
    }

    /** Attribute {@code a}, decoded from its UTF-8 bytes on first access; null if the store returned none. */
    public String get(int a) {
        String s = text[a];
        if (s == null && kind[a] == OWN) {
            s = new String(utf8[a], offset[a], length[a], StandardCharsets.UTF_8);
            text[a] = s;
        }
        return s;
    }

    /** Sets attribute {@code a} to {@code value} (null for none). */
    public void set(int a, String value) {
        text[a] = value;
        utf8[a] = null;
        kind[a] = NONE;
    }

    /**
     * Sets attribute {@code a} to the text these UTF-8 bytes encode (null for none). The array is kept, not copied:
     * the caller must not change it afterwards (a driver's freshly received field qualifies).
     */
    public void setUtf8(int a, byte[] bytes) {
        setUtf8(a, bytes, 0, bytes == null ? 0 : bytes.length);
    }

    /**
     * Sets attribute {@code a} to the text that {@code len} UTF-8 bytes of {@code bytes} from {@code off} encode. The
     * array is kept, not copied, as by {@link #setUtf8(int, byte[])}: several attributes may share one (the rows of a
     * reply, read into one array), which nobody may change afterwards.
     */
    public void setUtf8(int a, byte[] bytes, int off, int len) {
        if (bytes != null) {
            Objects.checkFromIndexSize(off, len, bytes.length);
        }
        text[a] = null;
        utf8[a] = bytes;
        offset[a] = off;
        length[a] = len;
        kind[a] = bytes == null ? NONE : OWN;
    }

    /** Attribute {@code a} as UTF-8 bytes (the store's own when it set them, else encoded); null if none. */
    public byte[] utf8(int a) {
        if (kind[a] == OWN) {
            byte[] b = utf8[a];
            return offset[a] == 0 && length[a] == b.length
                    ? b
                    : Arrays.copyOfRange(b, offset[a], offset[a] + length[a]);
        }
        return text[a] == null ? null : text[a].getBytes(StandardCharsets.UTF_8);
    }

    /** Sets the first {@code min(count, values.length)} attributes to {@code values}. */
    public void setAll(String[] values) {
        int n = Math.min(text.length, values.length);
        for (int a = 0; a < n; a++) {
            set(a, values[a]);
        }
    }

    /** Every attribute as a String, decoding as needed; allocates. */
    public String[] toArray() {
        String[] out = new String[text.length];
        for (int a = 0; a < out.length; a++) {
            out[a] = get(a);
        }
        return out;
    }

    /** Forgets every attribute. */
    public void clear() {
        Arrays.fill(text, null);
        Arrays.fill(utf8, null);
        Arrays.fill(kind, NONE);
    }
}
