package org.bgbench.store;

import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.Numbers;

/**
 * The settings a store was opened with: its declared keys, with defaults applied and values checked on read. Besides
 * the keys it carries the SLA's β of the command that opens the store (not a key: it is not part of the store's
 * identity), from which a store derives the default of its timeouts ({@link #timeout(String)}).
 */
public final class StoreSettings {
    /** β when the command has none (bg load, bg verify): the SLA's usual 100 ms. */
    public static final Duration DEFAULT_BETA = Duration.ofMillis(100);
    /**
     * The parameter that carries β to a worker with the other settings (a coordinator's open message); not a store
     * key, so it is no part of the store's identity.
     */
    public static final String BETA_PARAMETER = "bg.beta";
    /** The shortest call timeout a store accepts: drivers count some timeouts in whole seconds. */
    public static final Duration MIN_TIMEOUT = Duration.ofSeconds(1);

    private final Map<String, String> values;
    private final Duration beta;

    public StoreSettings(Map<String, String> values) {
        this(values, DEFAULT_BETA);
    }

    private StoreSettings(Map<String, String> values, Duration beta) {
        this.values = new TreeMap<>(values);
        this.beta = beta;
    }

    /** The same settings for a command whose SLA has {@code beta}; the default timeouts follow it. */
    public StoreSettings withBeta(Duration beta) {
        if (beta == null || beta.isNegative() || beta.isZero()) {
            throw new IllegalArgumentException("β must be positive, got " + beta);
        }
        return new StoreSettings(values, beta);
    }

    /** The β the store's default timeouts derive from ({@link #DEFAULT_BETA} unless a command set it). */
    public Duration beta() {
        return beta;
    }

    /**
     * The default of a store's call timeouts for an SLA with {@code beta}: max(10 s, 100·β). An action that waits that
     * long has missed β a hundred times over, so failing it (an error, with its elapsed time) changes no verdict,
     * while a store that stopped answering is found out and the run ends on time; and no slow but working store is
     * cut off at the usual β = 100 ms.
     */
    public static Duration defaultTimeout(Duration beta) {
        Duration hundred = beta.multipliedBy(100);
        return hundred.compareTo(Duration.ofSeconds(10)) > 0 ? hundred : Duration.ofSeconds(10);
    }

    /**
     * A call timeout: {@code key}'s duration ({@code 30s}, {@code 500ms}…; a plain number is seconds) when given,
     * else {@link #defaultTimeout(Duration)} of {@link #beta()}. At least {@link #MIN_TIMEOUT} and at most one day.
     *
     * @throws InvalidParameterException naming {@code key} when the value is not such a duration
     */
    public Duration timeout(String key) {
        String v = values.get(key);
        if (v == null || v.isBlank()) {
            return defaultTimeout(beta);
        }
        Duration d;
        try {
            d = Durations.parse(key, v);
        } catch (InvalidParameterException e) {
            throw new InvalidParameterException(key, "expected a timeout such as 10s, 30s or 2m, got '" + v + "'");
        }
        if (d.compareTo(MIN_TIMEOUT) < 0 || d.compareTo(Duration.ofDays(1)) > 0) {
            throw new InvalidParameterException(key, "expected a timeout from 1s to 1d, got '" + v + "'");
        }
        return d;
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
        return Collections.unmodifiableMap(values);
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
        return Numbers.parseInt(key, v);
    }

    public boolean getBoolean(String key, boolean fallback) {
        String v = values.get(key);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new InvalidParameterException(key, "expected true or false, got '" + v + "'");
        };
    }

    /** One of {@code accepted}, case-insensitive. */
    public String getChoice(String key, String fallback, String... accepted) {
        String v = values.getOrDefault(key, fallback).trim().toLowerCase(Locale.ROOT);
        for (String a : accepted) {
            if (a.equals(v)) {
                return a;
            }
        }
        throw new InvalidParameterException(
                key, "expected one of " + String.join(", ", accepted) + ", got '" + v + "'");
    }
}
