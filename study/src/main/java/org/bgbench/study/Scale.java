package org.bgbench.study;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** How big a study is run: tiny (minutes, the tests), small (this machine, under an hour), paper (its own sizes). */
public enum Scale {
    TINY,
    SMALL,
    PAPER;

    /** The name a study file and {@code --scale} use. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Scale> of(String key) {
        return Arrays.stream(values()).filter(s -> s.key().equals(key)).findFirst();
    }

    /** The accepted names, for refusals. */
    public static String names() {
        return "tiny, small, paper";
    }
}
