package org.bgbench.store.postgres;

import java.nio.charset.StandardCharsets;
import org.bgbench.store.relational.TextRows;

/**
 * Rows of one table in PostgreSQL's COPY text format, encoded straight to UTF-8 bytes: fields separated by tabs,
 * rows ended by newlines, {@code \N} for NULL, bytea as escaped hex. Reused across flushes.
 */
final class CopyBuffer extends TextRows {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** A text field, escaped for COPY and encoded as UTF-8. */
    @Override
    public CopyBuffer text(String s) {
        if (s == null) {
            nul();
            return this;
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
                } else if (Character.isHighSurrogate(c)
                        && i + 1 < s.length()
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
    @Override
    public CopyBuffer bytes(byte[] b) {
        if (b == null) {
            nul();
            return this;
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
}
