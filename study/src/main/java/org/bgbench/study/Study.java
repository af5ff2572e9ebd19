package org.bgbench.study;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One study as its file declares it: a paper's figure or table, what it varies, and how to measure it at each scale.
 *
 * @param name     the catalog name, after the source (e.g. {@code dissertation-fig-3.3})
 * @param title    one line saying what is measured
 * @param source   where the paper shows it and what it found
 * @param varies   the dimensions the study varies, in words (e.g. mix, T)
 * @param subjects the stores, their settings, the graph and the mixes
 * @param scales   the T grid, durations, repetitions and graph sizes of tiny, small and paper
 * @param output   the measures, the figures with the paper's values, the deviations and the findings
 * @param hash     SHA-256 of the file's parsed content, so a resume can tell the study it continues
 */
public record Study(
        String name,
        String title,
        Source source,
        List<String> varies,
        Subjects subjects,
        Map<Scale, ScalePlan> scales,
        Output output,
        String hash) {

    /** The paper, the figure or table, and its finding in words. */
    public record Source(String paper, String where, String finding) {}

    /**
     * A store the study measures.
     *
     * @param id       the name the study's series and point keys use (the store's name unless given)
     * @param store    BG's store binding ({@code bg stores})
     * @param starts   whether BG starts the store itself (no server to install, or one BG starts: {@code server})
     * @param settings the store's {@code -p} keys; {@code ${data}} and {@code ${group}} name its own data directory
     *                 and a name unique to it and the setting
     * @param server   the server BG starts for the store through its script, or null (docs/studies.md)
     */
    public record StoreEntry(String id, String store, boolean starts, Map<String, String> settings, Server server) {}

    /**
     * A server BG starts for a store group under the group's data directory, through {@code scripts/NAME.sh}.
     *
     * @param kind    which server
     * @param options its script's options (e.g. nodes: 3), in the order given
     */
    public record Server(ServerKind kind, Map<String, String> options) {
        /** The script's arguments after {@code start DIR}, e.g. {@code --nodes 3}. */
        public java.util.List<String> args() {
            java.util.List<String> a = new java.util.ArrayList<>();
            options.forEach((k, v) -> {
                a.add("--" + k);
                a.add(v);
            });
            return a;
        }

        /** In words, e.g. {@code cassandra --nodes 3}. */
        public String words() {
            java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of(kind.key()));
            a.addAll(args());
            return String.join(" ", a);
        }
    }

    /**
     * A named variant of the stores' keys (e.g. images as BLOBs or files), crossed with every store.
     *
     * @param name   its name in series and point keys
     * @param keys   the store and workload keys it sets
     * @param rating a rate study's rating options it sets, over the scale's ({@link RatingOptions#check})
     * @param graph  graph keys it sets per scale, over the scale's (e.g. a larger graph than the scale's)
     */
    public record Setting(
            String name,
            Map<String, String> keys,
            Map<String, JsonNode> rating,
            Map<Scale, Map<String, String>> graph) {
        public Setting(String name, Map<String, String> keys) {
            this(name, keys, Map.of(), Map.of());
        }
    }

    /** What a point of a study is: one experiment at a T ({@code run}) or one rating by BG's rating engine. */
    public enum Kind {
        RUN,
        RATE;

        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * What is measured.
     *
     * @param stores   the stores, in the order run
     * @param settings the variants crossed with each store (empty: one, unnamed)
     * @param graph    the graph and workload keys every scale shares (θ, images, ...)
     * @param mixes    BG's named mixes, in the order run
     * @param beta     β, the response time the share within it is reported against
     * @param kind     what a point is: a run at one T, or a rating
     */
    public record Subjects(
            List<StoreEntry> stores,
            List<Setting> settings,
            Map<String, String> graph,
            List<String> mixes,
            Duration beta,
            Kind kind) {}

    /**
     * One scale's grid.
     *
     * @param graph       the graph keys of this scale (M, φ, ρ, ...), over the study's own
     * @param threads     the values of T, in the order run
     * @param duration    the measured time of a point
     * @param warmup      the warm-up of a point, not measured
     * @param repetitions how often each point is measured (the median is reported)
     * @param settings    per setting name, keys of this scale over the setting's own (e.g. a TTL scaled to the
     *                    scale's durations)
     * @param rating      a rate study's rating options at this scale (empty for a run study)
     */
    public record ScalePlan(
            Map<String, String> graph,
            List<Integer> threads,
            Duration duration,
            Duration warmup,
            int repetitions,
            Map<String, Map<String, String>> settings,
            Map<String, JsonNode> rating) {
        /** A run study's scale that changes no setting's keys. */
        public ScalePlan(
                Map<String, String> graph, List<Integer> threads, Duration duration, Duration warmup, int repetitions) {
            this(graph, threads, duration, warmup, repetitions, Map.of(), Map.of());
        }
    }

    /**
     * What the study reports.
     *
     * @param measures   the measures kept per point and written as CSVs
     * @param figures    the figures, each with the paper's values where it gives numbers
     * @param deviations the study's own differences from the paper's setting (stores, what is plotted)
     * @param findings   opaque objects, each with at least {@code id} and {@code kind}, copied into study.json
     */
    public record Output(
            List<Measure> measures, List<Figure> figures, List<String> deviations, List<JsonNode> findings) {}

    /**
     * A figure as the paper shows it.
     *
     * @param id       its id in study.json
     * @param title    its title
     * @param x        the dimension on x (threads, mix, store or setting) and its label
     * @param y        the measure on y and its label
     * @param seriesBy the dimensions that make a series (store, setting, mix)
     * @param where    which points it shows: dimension → accepted values (empty: all)
     * @param paper    the paper's published values
     * @param curve    null for a figure of one value per point; else a JSON pointer to an array of each point's
     *                 result whose elements give x and y (their fields {@code x.key}, {@code y.key}): one point's
     *                 curve per series, e.g. the freshness-confidence buckets
     */
    public record Figure(
            String id,
            String title,
            Axis x,
            Axis y,
            List<String> seriesBy,
            Map<String, List<String>> where,
            List<PaperValue> paper,
            String curve) {
        /** A figure of one value per point. */
        public Figure(
                String id,
                String title,
                Axis x,
                Axis y,
                List<String> seriesBy,
                Map<String, List<String>> where,
                List<PaperValue> paper) {
            this(id, title, x, y, seriesBy, where, paper, null);
        }

        /** Whether each series is one point's curve read from an array of its result. */
        public boolean isCurve() {
            return curve != null;
        }
    }

    /** An axis: the key it plots and its label. */
    public record Axis(String key, String label) {}

    /** One published value: its series as the figure names it, x and y. */
    public record PaperValue(String series, JsonNode x, double y) {}
}
