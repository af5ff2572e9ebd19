package org.bgbench.loader;

/** A load that could not be done or did not produce the expected graph; the message is for the user. */
public class LoadException extends RuntimeException {
    public LoadException(String message) {
        super(message);
    }

    public LoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
