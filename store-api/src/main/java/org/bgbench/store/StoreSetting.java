package org.bgbench.store;

/**
 * One setting of a store, passed as {@code -p key=value}.
 *
 * @param key          the property key
 * @param defaultValue value used when the key is absent (null: none)
 * @param description  what it does and what values are accepted
 * @param path         the value names a file or directory on BG's host (a worker keeps such paths under its own
 *                     directory and refuses absolute ones and {@code ..})
 */
public record StoreSetting(String key, String defaultValue, String description, boolean path) {
    public StoreSetting(String key, String defaultValue, String description) {
        this(key, defaultValue, description, false);
    }

    /** A setting whose value is a file or directory on BG's host. */
    public static StoreSetting path(String key, String defaultValue, String description) {
        return new StoreSetting(key, defaultValue, description, true);
    }
}
