package org.bgbench.model;

import java.util.Locale;

/** Whole numbers from user input, with a message that names the key and says when a number is too large. */
public final class Numbers {
    private Numbers() {}

    /** {@code text} as an int (underscores allowed as separators); bad input names {@code key}. */
    public static int parseInt(String key, String text) {
        long n = parseLong(key, text);
        if (n > Integer.MAX_VALUE || n < Integer.MIN_VALUE) {
            throw new InvalidParameterException(
                    key,
                    String.format(
                            Locale.ROOT,
                            "%s is too large: at most %,d",
                            text.trim(),
                            n > 0 ? Integer.MAX_VALUE : Integer.MIN_VALUE));
        }
        return (int) n;
    }

    /** {@code text} as a long (underscores allowed as separators); bad input names {@code key}. */
    public static long parseLong(String key, String text) {
        String t = text == null ? "" : text.trim().replace("_", "");
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            if (t.matches("[+-]?\\d+")) {
                throw new InvalidParameterException(
                        key, String.format(Locale.ROOT, "%s is too large: at most %,d", text.trim(), Long.MAX_VALUE));
            }
            throw new InvalidParameterException(key, "expected a whole number, got '" + text + "'");
        }
    }
}
