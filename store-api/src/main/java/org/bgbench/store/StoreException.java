package org.bgbench.store;

/** A store failed: unreachable, refused credentials, rejected a statement. The message is meant for the user. */
public class StoreException extends RuntimeException {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
