package org.bgbench.runner;

import org.bgbench.loader.LoadException;

/** A store whose contents BG cannot vouch for; the message says why and what to do. */
public final class StateMismatch extends LoadException {
    private final String reason;

    StateMismatch(String reason, String advice) {
        super(reason + " " + advice);
        this.reason = reason;
    }

    /** Why, without the advice. */
    public String reason() {
        return reason;
    }
}
