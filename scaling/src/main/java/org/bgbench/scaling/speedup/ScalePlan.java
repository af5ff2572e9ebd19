package org.bgbench.scaling.speedup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bgbench.model.InvalidParameterException;

/**
 * The store configurations {@code bg scale} rates under one SLA (scalability paper E.2): the store's binding name and,
 * per configuration, its node count, its settings, the store hosts' node exporters and optional shell commands that
 * start it, print further settings and stop it. The first configuration is the baseline the ratios divide by.
 * Configurations name addresses, not local paths, so one plan works across real hosts.
 *
 * @param store          the binding, as {@code --store} takes it
 * @param networkMbps    each node's link speed in Mbit/s, so the bottleneck can judge the network; 0 when not given
 *                       (a node exporter does not know it, docs/resources.md)
 * @param configurations at least one, names unique
 */
public record ScalePlan(String store, double networkMbps, List<Configuration> configurations) {
    /** The option every message names. */
    public static final String OPTION = "--plan";

    /**
     * One configuration.
     *
     * @param name            unique, used in the rating directory's name ({@code NN-name})
     * @param nodes           N ≥ 1, the store's node count
     * @param settings        store settings given to load and rate as {@code -p key=value}
     * @param storeHosts      node exporters ({@code HOST[:PORT]}) read during every experiment
     * @param start           shell command run before the configuration is used, or null
     * @param settingsCommand shell command whose {@code key=value} output lines are added to the settings, or null
     * @param stop            shell command run after the configuration was rated (or failed), or null
     */
    public record Configuration(
            String name,
            int nodes,
            Map<String, String> settings,
            List<String> storeHosts,
            String start,
            String settingsCommand,
            String stop) {
        public Configuration {
            settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings)); // in the plan's order
            storeHosts = List.copyOf(storeHosts);
        }

        /** This configuration with more settings (a settings command's output); later ones win. */
        public Configuration withSettings(Map<String, String> more) {
            Map<String, String> all = new LinkedHashMap<>(settings);
            all.putAll(more);
            return new Configuration(name, nodes, all, storeHosts, start, settingsCommand, stop);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> PLAN_FIELDS = Set.of("store", "networkMbps", "configurations");
    private static final Set<String> CONFIG_FIELDS =
            Set.of("name", "nodes", "settings", "storeHosts", "start", "settingsCommand", "stop");

    public ScalePlan {
        configurations = List.copyOf(configurations);
    }

    /** The baseline, whose SoAR every ratio divides by. */
    public Configuration baseline() {
        return configurations.get(0);
    }

    /** The link speed in bytes per second, or 0 when unknown. */
    public double linkBytesPerS() {
        return networkMbps * 1e6 / 8;
    }

    /**
     * Reads a plan.
     *
     * @throws InvalidParameterException naming {@code --plan} and the field, e.g.
     *                                   {@code --plan: configurations[1].nodes: expected a whole number ≥ 1, got 0}
     */
    public static ScalePlan parse(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw bad("not JSON: " + e.getOriginalMessage() + " (line "
                    + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ")");
        }
        if (root == null || !root.isObject()) {
            throw bad("expected a JSON object {\"store\": …, \"configurations\": [...]}");
        }
        unknownFields(root, PLAN_FIELDS, "");
        String store = text(root, "store", "store", true);
        if (store.isBlank()) {
            throw bad("store: must name a store binding ('bg stores' lists them)");
        }
        JsonNode link = root.get("networkMbps");
        if (link != null && !link.isNull() && (!link.isNumber() || !(link.asDouble() > 0))) {
            throw bad("networkMbps: expected each node's link speed in Mbit/s, a number > 0, got " + link);
        }
        double mbps = link == null || link.isNull() ? 0 : link.asDouble();
        JsonNode list = root.get("configurations");
        if (list == null || !list.isArray() || list.isEmpty()) {
            throw bad("configurations: expected a non-empty list of configurations, the first one the baseline");
        }
        List<Configuration> configs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String at = "configurations[" + i + "]";
            JsonNode c = list.get(i);
            if (!c.isObject()) {
                throw bad(at + ": expected an object with name, nodes, settings, …");
            }
            unknownFields(c, CONFIG_FIELDS, at + ".");
            String name = text(c, "name", at + ".name", true);
            // The name becomes part of a directory name.
            if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
                throw bad(
                        at + ".name: expected letters, digits, '.', '_' or '-' (a directory name), got '" + name + "'");
            }
            if (!names.add(name)) {
                throw bad(at + ".name: '" + name + "' is already the name of an earlier configuration");
            }
            JsonNode n = c.get("nodes");
            if (n == null || !n.isIntegralNumber() || n.asLong() < 1 || n.asLong() > 100_000) {
                throw bad(at + ".nodes: expected a whole number ≥ 1, got " + (n == null ? "nothing" : n.toString()));
            }
            Map<String, String> settings = new LinkedHashMap<>();
            JsonNode s = c.get("settings");
            if (s != null && !s.isNull()) {
                if (!s.isObject()) {
                    throw bad(at
                            + ".settings: expected an object of store settings, e.g. {\"postgres.url\": \"jdbc:…\"}");
                }
                for (var it = s.fields(); it.hasNext(); ) {
                    var e = it.next();
                    if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                        throw bad(at + ".settings." + e.getKey() + ": expected a string, number or boolean");
                    }
                    settings.put(e.getKey(), e.getValue().asText());
                }
            }
            List<String> hosts = new ArrayList<>();
            JsonNode h = c.get("storeHosts");
            if (h != null && !h.isNull()) {
                if (!h.isArray()) {
                    throw bad(at + ".storeHosts: expected a list of HOST[:PORT] node exporters");
                }
                for (int j = 0; j < h.size(); j++) {
                    if (!h.get(j).isTextual() || h.get(j).asText().isBlank()) {
                        throw bad(at + ".storeHosts[" + j + "]: expected HOST[:PORT], got " + h.get(j));
                    }
                    hosts.add(h.get(j).asText().trim());
                }
            }
            configs.add(new Configuration(
                    name,
                    n.asInt(),
                    settings,
                    hosts,
                    text(c, "start", at + ".start", false),
                    text(c, "settingsCommand", at + ".settingsCommand", false),
                    text(c, "stop", at + ".stop", false)));
        }
        return new ScalePlan(store.trim(), mbps, configs);
    }

    private static void unknownFields(JsonNode node, Set<String> known, String at) {
        for (var it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                throw bad(at + f + ": unknown field; expected "
                        + String.join(", ", known.stream().sorted().toList()));
            }
        }
    }

    private static String text(JsonNode node, String field, String at, boolean required) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw bad(at + ": missing");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw bad(at + ": expected a string, got " + v);
        }
        if (!required && v.asText().isBlank()) {
            return null;
        }
        return v.asText();
    }

    private static InvalidParameterException bad(String message) {
        return new InvalidParameterException(OPTION, message);
    }
}
