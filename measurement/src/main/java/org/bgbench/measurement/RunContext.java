package org.bgbench.measurement;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Descriptive sections a result carries besides the measurements; each is a JSON object (values must be
 * Jackson-serializable: strings, numbers, booleans, lists, maps, records).
 */
public record RunContext(
        Map<String, Object> workload,
        Map<String, Object> store,
        Map<String, Object> graph,
        Map<String, Object> config) {

    public RunContext {
        workload = copy(workload);
        store = copy(store);
        graph = copy(graph);
        config = copy(config);
    }

    public static RunContext empty() {
        return new RunContext(null, null, null, null);
    }

    public RunContext withWorkload(Map<String, ?> section) {
        return new RunContext(copy(section), store, graph, config);
    }

    public RunContext withStore(Map<String, ?> section) {
        return new RunContext(workload, copy(section), graph, config);
    }

    public RunContext withGraph(Map<String, ?> section) {
        return new RunContext(workload, store, copy(section), config);
    }

    public RunContext withConfig(Map<String, ?> section) {
        return new RunContext(workload, store, graph, copy(section));
    }

    // Insertion-ordered copies keep the JSON in the caller's order; null values are allowed in a section.
    private static Map<String, Object> copy(Map<String, ?> section) {
        return section == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(section));
    }
}
