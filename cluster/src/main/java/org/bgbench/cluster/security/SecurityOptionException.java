package org.bgbench.cluster.security;

import java.util.Objects;

/**
 * A security option (secret, TLS) was given a value that cannot be used. {@link #option()} names the option (or the
 * environment variable) as the user typed it, e.g. {@code --secret-file}; the message says what is wrong and what is
 * accepted, in one line, without the option's name (the command line adds it).
 */
public final class SecurityOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String option;

    public SecurityOptionException(String option, String message) {
        this(option, message, null);
    }

    public SecurityOptionException(String option, String message, Throwable cause) {
        super(message, cause);
        this.option = Objects.requireNonNull(option, "option");
    }

    /** The option or environment variable at fault, e.g. {@code --tls-pin} or {@code BG_SECRET}. */
    public String option() {
        return option;
    }
}
