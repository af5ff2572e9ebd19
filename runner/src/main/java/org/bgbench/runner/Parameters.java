package org.bgbench.runner;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.bgbench.model.InvalidParameterException;

/**
 * Property parameters as USC BG takes them: {@code -P file} (applied in order) then {@code -p key=value} overrides.
 * Keys are case-sensitive as in the original, but checked against every key BG knows: an unknown {@code -p} key is an
 * error; an unknown key (or a line that is no {@code key=value}) inside a property file draws a warning naming the
 * file, because the original's files carry keys for its own classes that mean nothing here. Keys of the original that
 * BG knows and deliberately ignores (e.g. {@code db}) pass silently from a file, with a warning from {@code -p}.
 */
public final class Parameters {
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> origin = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();

    public static Parameters of(List<Path> files, List<String> overrides) {
        Parameters p = new Parameters();
        for (Path f : files) {
            p.readFile(f);
        }
        for (String kv : overrides) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new InvalidParameterException("-p", "expected key=value, got '" + kv + "'");
            }
            p.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim(), "-p");
        }
        return p;
    }

    private void readFile(Path f) {
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(f)) {
            props.load(r);
        } catch (NoSuchFileException e) {
            throw new InvalidParameterException("-P", "no such property file: " + f);
        } catch (IOException e) {
            throw new InvalidParameterException("-P", "cannot read property file " + f + ": " + e.getMessage());
        }
        for (String k : new TreeSet<>(props.stringPropertyNames())) {
            put(k.trim(), props.getProperty(k).trim(), f.toString());
        }
    }

    public void put(String key, String value, String from) {
        values.put(key, value);
        origin.put(key, from);
    }

    /** Sets {@code key} unless the user gave it. */
    public void putDefault(String key, String value) {
        if (!values.containsKey(key)) {
            put(key, value, "default");
        }
    }

    public Map<String, String> asMap() {
        return Collections.unmodifiableMap(values);
    }

    public String get(String key) {
        return values.get(key);
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    /** Where {@code key}'s value came from: a property file's path, {@code -p}, an option, or null when not set. */
    public String origin(String key) {
        return origin.get(key);
    }

    /**
     * Checks every key against {@code known}; {@code ignoredUsc} are keys of the original BG that BG accepts without
     * using (warned about if set).
     */
    public void check(Collection<String> known, Set<String> ignoredUsc) {
        check(known::contains, known, ignoredUsc);
    }

    /** As {@link #check(Collection, Set)} with a test for known keys; {@code names} are offered as suggestions. */
    public void check(Predicate<String> isKnown, Collection<String> names, Set<String> ignoredUsc) {
        Collection<String> known = names;
        for (Map.Entry<String, String> e : values.entrySet()) {
            String key = e.getKey();
            if (isKnown.test(key)) {
                continue;
            }
            boolean fromFile = !"-p".equals(origin.get(key));
            if (ignoredUsc.contains(key)) {
                if (!fromFile) {
                    warnings.add("ignoring " + key + "=" + e.getValue() + " from -p (a USC BG setting BG does not "
                            + "need)");
                }
                continue;
            }
            if (fromFile) {
                // Properties syntax reads a line of garbage as a key with the rest of the line as its value.
                warnings.add("ignoring " + key + (e.getValue().isEmpty() ? "" : " (value '" + e.getValue() + "')")
                        + " in " + origin.get(key) + ": not a key BG knows" + suggestion(key, known)
                        + "; 'bg keys' lists them");
                continue;
            }
            throw new InvalidParameterException(
                    key, "unknown parameter" + suggestion(key, known) + "; 'bg keys' and 'bg stores' list the keys");
        }
    }

    public List<String> warnings() {
        return warnings;
    }

    private static String suggestion(String key, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(key.toLowerCase(), k.toLowerCase());
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best != null && bestDistance <= Math.max(2, key.length() / 3) ? " (did you mean " + best + "?)" : "";
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
