package org.bgbench.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A member's profile attributes as a read action returns them, reused across calls. A store sets each attribute
 * either as a String or as the UTF-8 bytes it received ({@link #setUtf8}), which are decoded only when someone asks
 * for the String ({@link #get}). BG itself validates ids and counts, not attribute text, so a run that nobody reads
 * the attributes of never pays for building Strings: List Friends returns ~1,100 of them per call, and building them
 * was a quarter of BG's CPU in that action against PostgreSQL. YCSB's {@code ByteIterator} makes the same choice.
 * Not thread-safe, like the views that hold it.
 */
public final class Attributes {
    private final String[] text;
    private final byte[][] utf8;
    /** Where attribute a's bytes sit in utf8[a]: a store may hand over slices of one array per reply. */
    private final int[] offset;
    private final int[] length;

    public Attributes(int count) {
        text = new String[count];
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
        if (s == null) {
            byte[] b = utf8[a];
            if (b != null) {
                s = text[a] = new String(b, offset[a], length[a], StandardCharsets.UTF_8);
            }
        }
        return s;
    }

    /** Sets attribute {@code a} to {@code value} (null for none). */
    public void set(int a, String value) {
        text[a] = value;
        utf8[a] = null;
    }

    /**
     * Sets attribute {@code a} to the text these UTF-8 bytes encode (null for none). The array is kept, not copied:
     * the caller must not change it afterwards (a driver's freshly received field qualifies).
     */
    public void setUtf8(int a, byte[] bytes) {
        text[a] = null;
        utf8[a] = bytes;
        offset[a] = 0;
        length[a] = bytes == null ? 0 : bytes.length;
    }

    /**
     * Sets attribute {@code a} to the text that {@code len} UTF-8 bytes of {@code bytes} from {@code off} encode. The
     * array is kept, not copied, as by {@link #setUtf8(int, byte[])}: several attributes may share one (the rows of a
     * reply, read into one array), which nobody may change afterwards.
     */
    public void setUtf8(int a, byte[] bytes, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, bytes.length);
        text[a] = null;
        utf8[a] = bytes;
        offset[a] = off;
        length[a] = len;
    }

    /** Attribute {@code a} as UTF-8 bytes (the store's own when it set them, else encoded); null if none. */
    public byte[] utf8(int a) {
        byte[] b = utf8[a];
        if (b == null) {
            return text[a] == null ? null : text[a].getBytes(StandardCharsets.UTF_8);
        }
        return offset[a] == 0 && length[a] == b.length ? b : Arrays.copyOfRange(b, offset[a], offset[a] + length[a]);
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
    }
}
