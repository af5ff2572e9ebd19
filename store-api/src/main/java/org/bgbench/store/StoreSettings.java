package org.bgbench.store;

import java.util.Map;
import java.util.TreeMap;
import org.bgbench.model.InvalidParameterException;

/** The settings a store was opened with: its declared keys, with defaults applied and values checked on read. */
public final class StoreSettings {
    private final Map<String, String> values;

    public StoreSettings(Map<String, String> values) {
        this.values = new TreeMap<>(values);
    }

    public static StoreSettings of(Map<String, String> values) {
        return new StoreSettings(values);
    }

    /** Settings that keep only the keys {@code provider} declares, with its defaults for missing ones. */
    public static StoreSettings forProvider(StoreProvider provider, Map<String, String> given) {
        Map<String, String> v = new TreeMap<>();
        for (StoreSetting s : provider.settings()) {
            if (given.containsKey(s.key())) {
                v.put(s.key(), given.get(s.key()));
            } else if (s.defaultValue() != null) {
                v.put(s.key(), s.defaultValue());
            }
        }
        return new StoreSettings(v);
    }

    public Map<String, String> asMap() {
        return java.util.Collections.unmodifiableMap(values);
    }

    public String get(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    public String get(String key) {
        return values.get(key);
    }

    public int getInt(String key, int fallback) {
        String v = values.get(key);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        return org.bgbench.model.Numbers.parseInt(key, v);
    }

    public boolean getBoolean(String key, boolean fallback) {
        String v = values.get(key);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        return switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new InvalidParameterException(key, "expected true or false, got '" + v + "'");
        };
    }

    /** One of {@code accepted}, case-insensitive. */
    public String getChoice(String key, String fallback, String... accepted) {
        String v = values.getOrDefault(key, fallback).trim().toLowerCase(java.util.Locale.ROOT);
        for (String a : accepted) {
            if (a.equals(v)) {
                return a;
            }
        }
        throw new InvalidParameterException(key, "expected one of " + String.join(", ", accepted) + ", got '" + v + "'");
    }
}
