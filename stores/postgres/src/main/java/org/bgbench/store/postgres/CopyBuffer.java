package org.bgbench.store.postgres;

import java.util.Arrays;

/**
 * Rows of one table in PostgreSQL's COPY text format, encoded straight to UTF-8 bytes: fields separated by tabs,
 * rows ended by newlines, {@code \N} for NULL, bytea as escaped hex. Reused across flushes.
 */
final class CopyBuffer {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private byte[] buf = new byte[1 << 16];
    private int len;
    private int rows;

    byte[] array() {
        return buf;
    }

    int length() {
        return len;
    }

    int rows() {
        return rows;
    }

    void reset() {
        len = 0;
        rows = 0;
    }

    CopyBuffer tab() {
        put((byte) '\t');
        return this;
    }

    void endRow() {
        put((byte) '\n');
        rows++;
    }

    CopyBuffer number(long v) {
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

    private CopyBuffer ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    /** A text field, escaped for COPY and encoded as UTF-8. */
    CopyBuffer text(String s) {
        if (s == null) {
            return nul();
        }
        int n = s.length();
        ensure(n * 2);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                buf[len++] = (byte) c;
            } else {
                i = special(s, i, c);
            }
        }
        return this;
    }

    /** Writes the escape or UTF-8 sequence of {@code c} at {@code i}; returns the index of its last char. */
    private int special(String s, int i, char c) {
        ensure(4);
        switch (c) {
            case '\\' -> escape('\\');
            case '\t' -> escape('t');
            case '\n' -> escape('n');
            case '\r' -> escape('r');
            default -> {
                if (c < 0x80) {
                    buf[len++] = (byte) c;
                } else if (c < 0x800) {
                    buf[len++] = (byte) (0xc0 | (c >> 6));
                    buf[len++] = (byte) (0x80 | (c & 0x3f));
                } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                        && Character.isLowSurrogate(s.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, s.charAt(i + 1));
                    buf[len++] = (byte) (0xf0 | (cp >> 18));
                    buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                    buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                    buf[len++] = (byte) (0x80 | (cp & 0x3f));
                    return i + 1;
                } else {
                    // Lone surrogates become U+FFFD, as String.getBytes(UTF_8) does.
                    char u = Character.isSurrogate(c) ? '\ufffd' : c;
                    buf[len++] = (byte) (0xe0 | (u >> 12));
                    buf[len++] = (byte) (0x80 | ((u >> 6) & 0x3f));
                    buf[len++] = (byte) (0x80 | (u & 0x3f));
                }
            }
        }
        return i;
    }

    private void escape(char c) {
        buf[len++] = '\\';
        buf[len++] = (byte) c;
    }

    /** A bytea field in hex form; the leading backslash is doubled because COPY text unescapes it. */
    CopyBuffer bytes(byte[] b) {
        if (b == null) {
            return nul();
        }
        ensure(3 + b.length * 2);
        buf[len++] = '\\';
        buf[len++] = '\\';
        buf[len++] = 'x';
        for (byte v : b) {
            buf[len++] = HEX[(v >> 4) & 0xf];
            buf[len++] = HEX[v & 0xf];
        }
        return this;
    }

    CopyBuffer nul() {
        ensure(2);
        buf[len++] = '\\';
        buf[len++] = 'N';
        return this;
    }

    private void put(byte b) {
        ensure(1);
        buf[len++] = b;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
