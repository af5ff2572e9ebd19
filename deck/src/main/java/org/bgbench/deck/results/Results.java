package org.bgbench.deck.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The runs directory as the deck shows it: run results ({@code X.json} with a {@code total} section), ratings
 * (directories holding {@code rating.json} or, while they run, {@code experiments.jsonl}), {@code bg scale}'s
 * directories (holding {@code scale.json}) and elasticity results (JSON with {@code "kind": "elasticity"}, as
 * {@code elasticity.json}), {@code bg sweep}'s curves (format {@code bg-sweep/1}), newest first; one result
 * read whole; a run's per-second series as CSV. Every path the page sends is resolved inside the runs directory, and
 * no link out of it is followed; a file that is not JSON is refused without a word of its content.
 */
public final class Results {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The format of {@code bg sweep}'s JSON. */
    private static final String SWEEP = "bg-sweep/1";

    private final Path runs;

    public Results(Path runs) {
        this.runs = runs.toAbsolutePath().normalize();
    }

    public Path root() {
        return runs;
    }

    /** {@code relative} inside the runs directory, or an exception for anything outside it, links resolved. */
    public Path resolve(String relative) {
        if (relative == null || relative.isBlank()) {
            throw new IllegalArgumentException("path: a file under " + runs);
        }
        Path p = runs.resolve(relative).normalize();
        if (!p.startsWith(runs)) {
            throw new IllegalArgumentException("path: must stay under " + runs);
        }
        if (!confined(runs, p)) {
            throw new IllegalArgumentException("path: a link out of " + runs + " is not followed");
        }
        return p;
    }

    /**
     * Whether {@code p}, with every link resolved, is under {@code root}, also with its links resolved; a path that
     * does not exist is judged by its name.
     */
    public static boolean confined(Path root, Path p) {
        Path rootReal;
        try {
            rootReal = root.toRealPath();
        } catch (IOException e) {
            rootReal = root.toAbsolutePath().normalize();
        }
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return p.toAbsolutePath()
                    .normalize()
                    .startsWith(root.toAbsolutePath().normalize());
        }
        try {
            return p.toRealPath().startsWith(rootReal);
        } catch (IOException e) {
            return false; // a dangling link, or one that cannot be followed
        }
    }

    /** A JSON file under the runs directory; anything else is refused without its content. */
    private JsonNode read(Path p) throws IOException {
        if (!confined(runs, p)) {
            throw new IllegalArgumentException("path: a link out of " + runs + " is not followed");
        }
        try {
            return JSON.readTree(p.toFile());
        } catch (JsonProcessingException e) {
            // Jackson's message quotes the file's text: name the file and the line only
            throw new IllegalArgumentException("path: " + relative(p) + " is not a JSON file BG wrote (line "
                    + e.getLocation().getLineNr() + ")");
        }
    }

    public String relative(Path p) {
        return runs.relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    /** Every run and rating, newest first, with the figures a list shows. */
    public List<Map<String, Object>> list() throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        if (!Files.isDirectory(runs)) {
            return out;
        }
        try (Stream<Path> s = Files.walk(runs, 2)) {
            for (Path p : s.filter(p -> confined(runs, p))
                    .sorted(Comparator.comparing(Results::modified).reversed())
                    .toList()) {
                String name = p.getFileName().toString();
                if (Files.isDirectory(p) && Files.exists(p.resolve("scale.json"))) {
                    out.add(scale(p));
                } else if (Files.isDirectory(p)
                        && (Files.exists(p.resolve("rating.json")) || Files.exists(p.resolve("experiments.jsonl")))) {
                    out.add(rating(p));
                } else if (name.endsWith(".json")
                        && !name.equals("rating.json")
                        && !name.endsWith(".state.json")
                        && !name.equals("graph.json")
                        && !name.equals("scale.json")
                        && Files.isRegularFile(p)) {
                    Map<String, Object> r = run(p);
                    if (r != null) {
                        out.add(r);
                    }
                }
            }
        }
        return out;
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private Map<String, Object> run(Path p) {
        JsonNode n;
        try {
            n = read(p);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
        if (n != null && "elasticity".equals(n.path("kind").asText())) {
            return elasticity(p, n);
        }
        if (n != null && SWEEP.equals(n.path("format").asText())) {
            return sweep(p, n);
        }
        if (n == null || !n.has("total") || !n.has("series")) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "run");
        m.put("path", relative(p));
        m.put("modified", modified(p));
        m.put("store", n.path("store").path("name").asText(null));
        m.put("mix", n.path("workload").path("mix_name").asText(null));
        m.put("threads", n.path("threads").asInt());
        // when its measured period started, as its heading says when opened
        m.put("started", n.path("start_time").asText(null));
        m.put("throughput", n.path("throughput").asDouble());
        m.put("within_beta_pct", number(n.path("total").path("within_beta_pct")));
        m.put("p95_ms", number(n.path("total").path("p95_ms")));
        m.put("unpredictable_pct", number(n.path("unpredictable").path("pct")));
        m.put("partial", n.path("partial").asBoolean());
        Path hlog = sibling(p, ".hlog");
        m.put("hlog", Files.exists(hlog) ? relative(hlog) : null);
        return m;
    }

    private Map<String, Object> rating(Path dir) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "rating");
        m.put("path", relative(dir));
        m.put("modified", modified(dir));
        try {
            Path file = dir.resolve("rating.json");
            if (Files.exists(file)) {
                JsonNode n = read(file);
                m.put("store", n.path("store").asText(null));
                m.put("mix", n.path("workload").asText(null));
                m.put("soar", number(n.path("soar").path("actions_per_second")));
                m.put("socialites", number(n.path("socialites").path("threads")));
                m.put("complete", n.path("complete").asBoolean());
                // A figure that is a bound (T reached --max-threads still meeting the SLA) is shown with "≥".
                m.put("lower_bound", n.path("lower_bound").asBoolean());
            } else {
                m.put("running", true);
            }
        } catch (IOException | IllegalArgumentException e) {
            m.put("error", e.getMessage());
        }
        return m;
    }

    /** A {@code bg scale} directory: mode, store, SLA, and each configuration's nodes, SoAR and efficiency. */
    private Map<String, Object> scale(Path dir) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "scale");
        m.put("path", relative(dir));
        m.put("modified", modified(dir));
        try {
            JsonNode n = read(dir.resolve("scale.json"));
            m.put("store", n.path("store").asText(null));
            m.put("mix", n.path("workload").asText(null));
            m.put("mode", n.path("mode").asText(null));
            m.put("sla", n.path("sla").asText(null));
            m.put("complete", n.path("complete").asBoolean());
            List<Map<String, Object>> configs = new ArrayList<>();
            for (JsonNode c : n.path("configurations")) {
                Map<String, Object> cm = new LinkedHashMap<>();
                cm.put("name", c.path("name").asText(null));
                cm.put("nodes", c.path("nodes").asInt());
                cm.put("soar", number(c.path("soar")));
                cm.put("lower_bound", c.path("lower_bound").asBoolean(false));
                cm.put("efficiency", number(c.path("efficiency")));
                configs.add(cm);
            }
            m.put("configurations", configs);
        } catch (IOException | IllegalArgumentException e) {
            m.put("error", e.getMessage());
        }
        return m;
    }

    /** An elasticity result: nodes before and after the add, its score and how long the store took to settle. */
    private Map<String, Object> elasticity(Path p, JsonNode n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "elasticity");
        m.put("path", relative(p));
        m.put("modified", modified(p));
        m.put("store", n.path("store").asText(null));
        m.put(
                "nodes_before",
                n.path("nodesBefore").isNumber() ? n.path("nodesBefore").asInt() : null);
        m.put(
                "nodes_after",
                n.path("nodesAfter").isNumber() ? n.path("nodesAfter").asInt() : null);
        m.put("elasticity", number(n.path("score").path("elasticity")));
        m.put("stabilisation_seconds", number(n.path("stabilisationSeconds")));
        m.put("threads", n.path("threads").isNumber() ? n.path("threads").asInt() : null);
        return m;
    }

    /** A {@code bg sweep}'s curve: store, mix and each point's T and throughput. */
    private Map<String, Object> sweep(Path p, JsonNode n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "sweep");
        m.put("path", relative(p));
        m.put("modified", modified(p));
        m.put("store", n.path("store").asText(null));
        m.put("mix", n.path("mix").asText(null));
        List<Map<String, Object>> points = new ArrayList<>();
        for (JsonNode pt : n.path("points")) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("threads", pt.path("threads").asInt());
            pm.put("throughput", number(pt.path("throughput")));
            points.add(pm);
        }
        m.put("points", points);
        return m;
    }

    private static Double number(JsonNode n) {
        return n.isNumber() ? n.asDouble() : null;
    }

    /** {@code X.suffix} beside {@code X.json}. */
    public static Path sibling(Path json, String suffix) {
        String name = json.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return json.resolveSibling(stem + suffix);
    }

    /**
     * A result as the page opens it: a run's JSON as written (without its encoded histograms), or a rating's
     * {@code rating.json} (when written) with the experiments found so far.
     */
    public JsonNode open(String relative) throws IOException {
        Path p = resolve(relative);
        if (Files.isDirectory(p) && Files.exists(p.resolve("scale.json"))) {
            ObjectNode r = JSON.createObjectNode();
            r.put("kind", "scale");
            r.put("path", relative(p));
            JsonNode scale = read(p.resolve("scale.json"));
            // Each configuration's rating as a path the page can open like any other rating.
            for (JsonNode c : scale.path("configurations")) {
                if (c instanceof ObjectNode o
                        && c.path("rating_dir").isTextual()
                        && Files.exists(p.resolve(c.path("rating_dir").asText()).resolve("rating.json"))) {
                    o.put("rating_path", relative(p.resolve(c.path("rating_dir").asText())));
                }
            }
            r.set("scale", scale);
            return r;
        }
        if (Files.isDirectory(p)) {
            ObjectNode r = JSON.createObjectNode();
            r.put("kind", "rating");
            r.put("path", relative(p));
            Path file = p.resolve("rating.json");
            if (Files.exists(file)) {
                r.set("rating", read(file));
            }
            if (confined(runs, p.resolve("experiments.jsonl"))) {
                r.set("experiments", experiments(p));
            }
            return r;
        }
        JsonNode n = read(p);
        if (n instanceof ObjectNode o && SWEEP.equals(o.path("format").asText())) {
            o.put("kind", "sweep");
            o.put("path", relative(p));
            // each point's run as a path the page can open, when it lies in the runs directory
            for (JsonNode pt : o.path("points")) {
                Path run = pt.path("result").isTextual()
                        ? Path.of(pt.path("result").asText()).toAbsolutePath().normalize()
                        : null;
                if (pt instanceof ObjectNode po && run != null && run.startsWith(runs) && confined(runs, run)) {
                    po.put("result_path", relative(run));
                }
            }
            return o;
        }
        if (n instanceof ObjectNode o && "elasticity".equals(o.path("kind").asText())) {
            o.put("path", relative(p));
            // bg elasticity writes its chart beside the result (X.svg)
            Path svg = sibling(p, ".svg");
            o.put("svg_path", Files.exists(svg) ? relative(svg) : null);
            return o;
        }
        if (n instanceof ObjectNode o) {
            strip(o.path("total"));
            o.path("actions").forEach(Results::strip);
            o.path("sessions").forEach(Results::strip);
            o.put("kind", "run");
            o.put("path", relative(p));
            Path hlog = sibling(p, ".hlog");
            o.put("hlog_path", Files.exists(hlog) ? relative(hlog) : null);
        }
        return n;
    }

    private static void strip(JsonNode n) {
        if (n instanceof ObjectNode o) {
            o.remove("hdr");
        }
    }

    /** A rating's experiments as they finished ({@code experiments.jsonl}), each with its SLA verdict. */
    public static ArrayNode experiments(Path dir) throws IOException {
        ArrayNode a = JSON.createArrayNode();
        Path f = dir.resolve("experiments.jsonl");
        if (Files.exists(f)) {
            for (String line : Files.readAllLines(f)) {
                if (!line.isBlank()) {
                    try {
                        a.add(JSON.readTree(line));
                    } catch (IOException e) {
                        // a line being written
                    }
                }
            }
        }
        return a;
    }

    /** A run's per-second series as CSV, one row a second, the columns of the result's series. */
    public String csv(String relative) throws IOException {
        JsonNode n = read(resolve(relative));
        JsonNode series = n.path("series");
        if (!series.isArray()) {
            throw new IllegalArgumentException("path: not a run result with a series");
        }
        List<String> columns = new ArrayList<>();
        if (!series.isEmpty()) {
            series.get(0).fieldNames().forEachRemaining(columns::add);
        }
        StringBuilder sb = new StringBuilder(String.join(",", columns)).append('\n');
        for (JsonNode row : series) {
            List<String> cells = new ArrayList<>();
            for (String c : columns) {
                JsonNode v = row.path(c);
                cells.add(
                        v.isNull() || v.isMissingNode()
                                ? ""
                                : v.isNumber() ? String.format(Locale.ROOT, "%s", v.numberValue()) : v.asText());
            }
            sb.append(String.join(",", cells)).append('\n');
        }
        return sb.toString();
    }
}
