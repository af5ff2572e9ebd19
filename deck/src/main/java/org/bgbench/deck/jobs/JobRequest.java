package org.bgbench.deck.jobs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the deck's set-up form sends: a command, the store and its changed settings, the graph's keys, the workload (a
 * named mix, or {@code custom} with percentages per action or session code) and the command's options by name
 * ({@code --threads}); a flag's value is {@code true}. Empty values mean "the default" and are left out.
 */
public record JobRequest(
        String command,
        String store,
        Map<String, String> settings,
        Map<String, String> graph,
        String workload,
        Map<String, Double> mix,
        Map<String, Object> options) {
    public JobRequest {
        settings = settings == null ? Map.of() : new LinkedHashMap<>(settings);
        graph = graph == null ? Map.of() : new LinkedHashMap<>(graph);
        mix = mix == null ? Map.of() : new LinkedHashMap<>(mix);
        options = options == null ? Map.of() : new LinkedHashMap<>(options);
    }
}
