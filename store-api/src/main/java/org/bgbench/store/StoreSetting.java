package org.bgbench.store;

/**
 * One setting of a store, passed as {@code -p key=value}.
 *
 * @param key          the property key
 * @param defaultValue value used when the key is absent (null: none)
 * @param description  what it does and what values are accepted
 */
public record StoreSetting(String key, String defaultValue, String description) {
}
