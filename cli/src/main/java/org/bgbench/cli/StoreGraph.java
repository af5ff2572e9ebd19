package org.bgbench.cli;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.bgbench.model.GraphKeys;
import org.bgbench.model.GraphKeys.Difference;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.runner.Parameters;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSettings;

/**
 * The graph a command uses, chosen with the store: a store that holds a BG graph records its full parameters (its
 * {@link GraphSpec#fingerprint()}), so a command that names no graph key uses that graph, and the keys a command
 * names change only those parameters of it. When the named keys ask for another graph than the store holds, the
 * command is refused naming each key that differs, unless it may load the one named ({@code --load}). A store whose
 * record BG cannot read back (none, or from another version) leaves the keys as the command gave them.
 */
final class StoreGraph {
    /** Keys that set one parameter together: naming one of a group replaces the store's whole group. */
    private static final List<Set<String>> GROUPS = List.of(
            Set.of("thumbnailsize", "thumbnailbytes"),
            Set.of("imagesize", "profileimagebytes"),
            Set.of("pagecount", "pagesperuser", "followersperpage", "resourcecountperpage"));

    /**
     * The graph a command asked for, with the store's.
     *
     * @param params the command's parameters with the store's graph keys it did not name added
     * @param asked  the graph those parameters generate
     * @param held   the graph the store holds, as keys; empty when it holds none BG can read back
     * @param keys   the graph keys the command named
     */
    record Choice(Parameters params, GraphSpec asked, Optional<Map<String, String>> held, Set<String> keys) {
        /** Whether the command named any graph key. */
        boolean named() {
            return !keys.isEmpty();
        }

        /** Whether the store holds a graph BG can read and it is not the one asked for. */
        boolean differs() {
            return held.isPresent()
                    && !GraphParameters.toSpec(held.get()).fingerprint().equals(asked.fingerprint());
        }

        /**
         * The keys whose values differ between the store's graph and the one asked for: those the command named, or
         * when only derived ones differ (fragments, a page's resources), those.
         */
        List<Difference> differences() {
            List<Difference> all = held.map(h -> GraphKeys.differences(GraphParameters.toSpec(h), asked))
                    .orElse(List.of());
            List<Difference> named = all.stream()
                    .filter(d -> keys.contains(d.key()) || keys.contains(ALIASES.get(d.key())))
                    .toList();
            return named.isEmpty() ? all : named;
        }

        /** The asked graph's keys. */
        Map<String, String> askedKeys() {
            return GraphKeys.of(asked);
        }

        /** The line a command prints to say which graph it uses; empty when the store holds none BG can read. */
        Optional<String> line() {
            if (held.isEmpty()) {
                return Optional.empty();
            }
            if (!named()) {
                return Optional.of("graph from the store: " + GraphKeys.text(held.get()));
            }
            return Optional.of(
                    differs()
                            ? "the store holds " + GraphKeys.text(held.get()) + "; loading "
                                    + GraphKeys.text(askedKeys()) + " in its place, as --load and the -p keys ask"
                            : "graph " + GraphKeys.text(askedKeys()) + ", as the store holds it");
        }

        /**
         * The refusal of named keys that differ from the store's graph, in one line naming each with both values and
         * what to do; {@code offersLoad}: the command has a {@code --load} that would load the one asked for.
         */
        InvalidParameterException refusal(String store, boolean offersLoad) {
            List<Difference> d = differences();
            String which = d.stream().map(Difference::toString).collect(Collectors.joining(", "));
            String named = askedKeys().entrySet().stream()
                    .map(e -> "-p " + e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(" "));
            return new InvalidParameterException(
                    d.isEmpty() ? "-p" : d.getFirst().key(),
                    "the store holds another graph than the -p keys ask for (" + which + "); drop those keys to use "
                            + "the store's graph, or "
                            + (offersLoad
                                    ? "pass --load to load the one asked for in its place"
                                    : "load the one asked for first (bg load --store " + store + " --replace " + named
                                            + ")"));
        }
    }

    /** The key {@link GraphKeys} compares under, and the other key a user may set it with. */
    private static final Map<String, String> ALIASES =
            Map.of("thumbnailbytes", "thumbnailsize", "profileimagebytes", "imagesize");

    private StoreGraph() {}

    /**
     * Where a command reads the fingerprint the store recorded with its last completed load: the store itself
     * ({@link #local}), or with {@code --workers} the workers, which reach it where the coordinator may not.
     */
    @FunctionalInterface
    interface Record {
        /** The recorded fingerprint, or empty when the store holds no graph BG recorded. */
        Optional<String> read(StoreSettings settings, Parameters params);
    }

    /** The store opened here: a store that forgets its contents on close holds none. */
    static Record local(StoreProvider provider) {
        return (settings, params) ->
                provider.traits().forgetsOnClose() ? Optional.empty() : recorded(provider, settings);
    }

    /** Chooses the graph of {@code params} with the store's, reading the store here ({@link #local}). */
    static Choice choose(StoreProvider provider, StoreSettings settings, Parameters params) {
        return choose(local(provider), settings, params);
    }

    /**
     * Chooses the graph of {@code params} with the store's: reads the graph the store records ({@code record}) and
     * adds its keys that the command did not name.
     */
    static Choice choose(Record record, StoreSettings settings, Parameters params) {
        Set<String> named = params.asMap().keySet().stream()
                .filter(GraphParameters.KEYS::containsKey)
                .collect(Collectors.toSet());
        Optional<Map<String, String>> held = record.read(settings, params).flatMap(GraphKeys::fromFingerprint);
        if (held.isEmpty()) {
            return new Choice(params, GraphParameters.toSpec(params.asMap()), held, named);
        }
        Parameters merged = new Parameters();
        held.get().forEach((k, v) -> {
            if (!params.has(k) && !namesGroupOf(params, k)) {
                merged.put(k, v, "the store");
            }
        });
        params.asMap().forEach((k, v) -> merged.put(k, v, params.origin(k)));
        return new Choice(merged, GraphParameters.toSpec(merged.asMap()), held, named);
    }

    private static boolean namesGroupOf(Parameters params, String key) {
        return GROUPS.stream().filter(g -> g.contains(key)).flatMap(Set::stream).anyMatch(params::has);
    }

    /** The fingerprint the store recorded with its last completed load, or empty. */
    private static Optional<String> recorded(StoreProvider provider, StoreSettings settings) {
        try (DataStore store = provider.open(settings)) {
            return store.loadedGraph();
        }
    }
}
