package org.bgbench.store.relational;

import java.util.Arrays;

/**
 * Rows of one table in a bulk-load text format, encoded straight to bytes and reused across flushes: fields separated
 * by tabs, rows ended by newlines, {@code \N} for NULL. PostgreSQL's COPY text and MariaDB's LOAD DATA default format
 * share this much; each engine's subclass escapes text and bytes its own way.
 */
public abstract class TextRows {
    /** A buffer grown past this is replaced by a small one at {@link #reset}, so one large flush does not pin it. */
    private static final int KEEP_BYTES = 1 << 24;

    private static final int INITIAL_BYTES = 1 << 16;

    protected byte[] buf = new byte[INITIAL_BYTES];
    protected int len;
    private int rows;

    public byte[] array() {
        return buf;
    }

    public int length() {
        return len;
    }

    public int rows() {
        return rows;
    }

    public void reset() {
        len = 0;
        rows = 0;
        if (buf.length > KEEP_BYTES) {
            buf = new byte[INITIAL_BYTES];
        }
    }

    public TextRows tab() {
        ensure(1);
        buf[len++] = '\t';
        return this;
    }

    public void endRow() {
        ensure(1);
        buf[len++] = '\n';
        rows++;
    }

    /** A whole number in decimal. */
    public TextRows number(long v) {
        ensure(20);
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                return ascii(Long.toString(v));
            }
            buf[len++] = '-';
            v = -v;
        }
        int start = len;
        do {
            buf[len++] = (byte) ('0' + (int) (v % 10));
            v /= 10;
        } while (v != 0);
        // Digits were written least significant first.
        for (int i = start, j = len - 1; i < j; i++, j--) {
            byte t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
        }
        return this;
    }

    private TextRows ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    /** A text field (null: NULL), escaped for the format and encoded as UTF-8. */
    public abstract TextRows text(String s);

    /** A binary field (null: NULL) in the format's form. */
    public abstract TextRows bytes(byte[] b);

    /** A NULL field. */
    public TextRows nul() {
        ensure(2);
        buf[len++] = '\\';
        buf[len++] = 'N';
        return this;
    }

    /** Makes room for {@code more} bytes. */
    protected final void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
