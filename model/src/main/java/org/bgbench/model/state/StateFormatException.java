package org.bgbench.model.state;

import java.io.EOFException;
import java.io.IOException;

/**
 * A saved state that cannot be read: where in it reading stopped (the header, member 57's record, share 12's record)
 * and what was wrong there, so the caller can name the file and its byte offset. {@link #endedEarly()} tells a file
 * cut short from one whose bytes make no sense.
 */
public final class StateFormatException extends IOException {
    private final String where;
    private final String what;
    private final boolean endedEarly;

    StateFormatException(String where, String what, boolean endedEarly, Throwable cause) {
        super((endedEarly ? "ends inside " + where : where + ": " + what), cause);
        this.where = where;
        this.what = what;
        this.endedEarly = endedEarly;
    }

    static StateFormatException of(String where, Throwable cause) {
        if (cause instanceof StateFormatException s) {
            return s;
        }
        if (cause instanceof EOFException) {
            return new StateFormatException(where, "the file ends", true, cause);
        }
        String what = cause.getMessage() != null
                ? cause.getMessage()
                : "unreadable (" + cause.getClass().getSimpleName() + ")";
        return new StateFormatException(where, what, false, cause);
    }

    /** The part of the state reading stopped in, e.g. "member 57's record". */
    public String where() {
        return where;
    }

    /** What was wrong there (for a file cut short: "the file ends"). */
    public String what() {
        return what;
    }

    /** The file ended before the state did: it was cut short. */
    public boolean endedEarly() {
        return endedEarly;
    }
}
