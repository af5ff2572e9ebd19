package org.bgbench.study;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.bgbench.study.report.Findings;

/**
 * Reads a study file (YAML) strictly: an unknown field, a value of the wrong type, a scale other than tiny, small and
 * paper, or a missing required field is refused with one line naming the file, the field's path and what is accepted.
 */
public final class StudyParser {
    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory()).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");
    /** The dimensions of a point a figure may put on x, make series of, or select by. */
    static final Set<String> DIMENSIONS = ordered("threads", "store", "setting", "mix");

    private static final Set<String> TOP = ordered(
            "name",
            "title",
            "source",
            "varies",
            "stores",
            "settings",
            "graph",
            "mixes",
            "beta",
            "scales",
            "measures",
            "figures",
            "deviations",
            "findings",
            "kind");

    private StudyParser() {}

    static Set<String> ordered(String... names) {
        return new LinkedHashSet<>(List.of(names));
    }

    /** Parses {@code text}, naming {@code file} in every refusal. */
    public static Study parse(String file, String text) {
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw new StudyFileException(
                    file,
                    "",
                    "not YAML" + where + ": "
                            + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        Fields f = Fields.root(file, root).only(TOP);
        String name = f.text("name");
        if (!NAME.matcher(name).matches()) {
            throw f.refuse("name", "expected lower-case letters, digits, '.', '_' or '-', got '" + name + "'");
        }
        Study.Subjects subjects = subjects(f);
        Study.Output output = output(f, subjects);
        Map<Scale, Study.ScalePlan> scales = scales(f.object("scales"), subjects);
        curveThreads(f, output.figures(), scales);
        if (subjects.kind() == Study.Kind.RATE) {
            RateStudyCheck.deltas(f, subjects, scales);
        }
        return new Study(
                name,
                f.text("title"),
                source(f.object("source")),
                f.texts("varies", true),
                subjects,
                scales,
                output,
                hash(root));
    }

    private static Study.Source source(Fields s) {
        s.only(ordered("paper", "where", "finding"));
        return new Study.Source(s.text("paper"), s.text("where"), s.text("finding"));
    }

    private static Study.Subjects subjects(Fields f) {
        List<Study.StoreEntry> stores = f.list("stores", true, s -> {
            s.only(ordered("store", "id", "starts", "settings", "server"));
            String store = s.text("store");
            Study.Server server = s.has("server") ? ServerFields.parse(s, store) : null;
            if (server != null && !s.bool("starts", true)) {
                throw s.refuse("starts", "false contradicts server: BG starts the store's server itself");
            }
            return new Study.StoreEntry(
                    s.text("id", store), store, s.bool("starts", server != null), s.keys("settings"), server);
        });
        unique(f, "stores", stores.stream().map(Study.StoreEntry::id).toList(), "id");
        Study.Kind kind = kind(f);
        List<Study.Setting> settings = f.list("settings", false, s -> RateStudyCheck.setting(s, kind));
        unique(f, "settings", settings.stream().map(Study.Setting::name).toList(), "name");
        List<String> mixes = f.texts("mixes", true);
        return new Study.Subjects(
                stores,
                settings,
                f.keys("graph"),
                mixes,
                f.has("beta") ? f.duration("beta", false) : java.time.Duration.ofMillis(100),
                kind);
    }

    private static Study.Kind kind(Fields f) {
        String k = f.text("kind", "run");
        for (Study.Kind kind : Study.Kind.values()) {
            if (kind.key().equals(k)) {
                return kind;
            }
        }
        throw f.refuse(
                "kind", "expected run (one experiment per point) or rate (one rating per point), got '" + k + "'");
    }

    private static void unique(Fields f, String field, List<String> names, String key) {
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < names.size(); i++) {
            if (!seen.add(names.get(i))) {
                throw new StudyFileException(
                        fileOf(f),
                        path(f, field) + "[" + i + "]." + key,
                        "'" + names.get(i) + "' is given twice; each must be unique");
            }
        }
    }

    private static String fileOf(Fields f) {
        return f.file();
    }

    private static String path(Fields f, String field) {
        return f.path().isEmpty() ? field : f.path() + "." + field;
    }

    private static Map<Scale, Study.ScalePlan> scales(Fields s, Study.Subjects subjects) {
        s.only(ordered("tiny", "small", "paper"));
        Map<Scale, Study.ScalePlan> out = new EnumMap<>(Scale.class);
        for (Scale scale : Scale.values()) {
            if (subjects.kind() == Study.Kind.RATE) {
                out.put(scale, RateStudyCheck.scale(s.object(scale.key())));
                continue;
            }
            Fields p = s.object(scale.key())
                    .only(ordered("graph", "threads", "duration", "warmup", "repetitions", "settings"));
            out.put(
                    scale,
                    new Study.ScalePlan(
                            p.keys("graph"),
                            p.positiveInts("threads"),
                            p.duration("duration", false),
                            p.has("warmup") ? p.duration("warmup", true) : java.time.Duration.ZERO,
                            p.has("repetitions") ? p.positiveInt("repetitions") : 1,
                            scaleSettings(p, subjects),
                            Map.of()));
        }
        return out;
    }

    /** A scale's keys over some settings' own: each name must be one of the study's settings. */
    private static Map<String, Map<String, String>> scaleSettings(Fields p, Study.Subjects subjects) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        if (!p.has("settings")) {
            return out;
        }
        Set<String> names = new LinkedHashSet<>();
        subjects.settings().forEach(st -> names.add(st.name()));
        if (names.isEmpty()) {
            throw p.refuse("settings", "the study has no settings to change at this scale");
        }
        Fields s = p.object("settings").only(names);
        for (String n : names) {
            if (s.has(n)) {
                out.put(n, s.keys(n));
            }
        }
        return out;
    }

    /**
     * A curve figure draws one point's curve per series, so every T it selects must be in every scale's grid (a
     * figure empty at some scale is a mistake of the file).
     */
    private static void curveThreads(Fields f, List<Study.Figure> figures, Map<Scale, Study.ScalePlan> scales) {
        for (int i = 0; i < figures.size(); i++) {
            if (!figures.get(i).isCurve()) {
                continue;
            }
            List<String> ts = figures.get(i).where().getOrDefault("threads", List.of());
            for (int j = 0; j < ts.size(); j++) {
                String t = ts.get(j);
                for (Scale sc : Scale.values()) {
                    List<Integer> grid = scales.get(sc).threads();
                    if (grid.stream().noneMatch(v -> v.toString().equals(t))) {
                        throw new StudyFileException(
                                fileOf(f),
                                "figures[" + i + "].where.threads[" + j + "]",
                                "T=" + ts.get(j) + " is not in scales." + sc.key() + ".threads ("
                                        + String.join(
                                                ", ",
                                                grid.stream()
                                                        .map(String::valueOf)
                                                        .toList())
                                        + ")");
                    }
                }
            }
        }
    }

    private static Study.Output output(Fields f, Study.Subjects subjects) {
        List<String> names = f.texts("measures", true);
        List<Measure> measures = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            int at = i;
            Study.Kind kind = subjects.kind();
            measures.add(Measure.of(n)
                    .filter(m -> m.ofRating() == (kind == Study.Kind.RATE))
                    .orElseThrow(() -> new StudyFileException(
                            fileOf(f),
                            "measures[" + at + "]",
                            "unknown measure '" + n + "'; accepted: " + Measure.names(kind == Study.Kind.RATE)
                                    + (kind == Study.Kind.RATE ? " (a rate study's)" : ""))));
        }
        List<Study.Figure> figures = f.list("figures", true, g -> figure(g, measures, subjects));
        unique(f, "figures", figures.stream().map(Study.Figure::id).toList(), "id");
        List<JsonNode> findings = f.raw("findings");
        for (int i = 0; i < findings.size(); i++) {
            JsonNode n = findings.get(i);
            String p = "findings[" + i + "]";
            if (!n.isObject()) {
                throw new StudyFileException(fileOf(f), p, "expected a mapping with at least id and kind");
            }
            // Each kind checks its own fields (docs/study-report.md, "Findings"); the figure must be one of the
            // study's.
            Map<String, Set<String>> figureIds = new LinkedHashMap<>();
            figures.forEach(fig -> figureIds.put(fig.id(), Set.of()));
            Optional<String> bad = Findings.check(n, figureIds);
            if (bad.isPresent()) {
                throw new StudyFileException(fileOf(f), p, bad.get());
            }
        }
        return new Study.Output(measures, figures, f.texts("deviations", false), findings);
    }

    private static Study.Figure figure(Fields g, List<Measure> measures, Study.Subjects subjects) {
        g.only(ordered("id", "title", "curve", "x", "y", "series_by", "where", "paper"));
        if (g.has("curve")) {
            return CurveFigures.parse(g, subjects);
        }
        Study.Axis x = axis(g.object("x"), "threads");
        if (!DIMENSIONS.contains(x.key())) {
            throw g.refuse("x.key", "expected one of " + String.join(", ", DIMENSIONS) + ", got '" + x.key() + "'");
        }
        if (subjects.kind() == Study.Kind.RATE && x.key().equals("threads")) {
            throw g.refuse("x.key", "expected store, setting or mix: a rate study's points have no T of their own");
        }
        Study.Axis yGiven = axis(g.object("y"), "throughput");
        Measure m = Measure.of(yGiven.key())
                .filter(measures::contains)
                .orElseThrow(() -> g.refuse(
                        "y.key",
                        "expected one of the study's measures ("
                                + String.join(
                                        ", ",
                                        measures.stream().map(Measure::key).toList()) + "), got '" + yGiven.key()
                                + "'"));
        Study.Axis y = yGiven.label() == null ? new Study.Axis(yGiven.key(), m.label()) : yGiven;
        if (x.label() == null) {
            x = new Study.Axis(x.key(), x.key().equals("threads") ? "T" : x.key());
        }
        List<String> seriesBy = g.texts("series_by", false);
        Map<String, List<String>> where = where(g, subjects);
        List<Study.PaperValue> paper = paper(g);
        for (int i = 0; i < seriesBy.size(); i++) {
            String d = seriesBy.get(i);
            if (!DIMENSIONS.contains(d)
                    || d.equals(x.key())
                    || (d.equals("threads") && subjects.kind() == Study.Kind.RATE)) {
                throw g.refuse(
                        "series_by[" + i + "]", "expected store, setting, mix or threads (not x), got '" + d + "'");
            }
        }
        return new Study.Figure(g.text("id"), g.text("title"), x, y, seriesBy, where, paper);
    }

    /** A figure's {@code where}: dimension → accepted values, each mix one of the study's. */
    static Map<String, List<String>> where(Fields g, Study.Subjects subjects) {
        Map<String, List<String>> where = new LinkedHashMap<>();
        if (g.has("where")) {
            Fields w = g.object("where").only(DIMENSIONS);
            for (String d : DIMENSIONS) {
                if (w.has(d)) {
                    where.put(d, w.texts(d, true));
                }
            }
        }
        if (subjects.kind() == Study.Kind.RATE && where.containsKey("threads")) {
            throw g.refuse(
                    "where.threads", "a rate study's points have no T of their own; select by store, setting or mix");
        }
        List<String> mixes = where.getOrDefault("mix", List.of());
        for (int i = 0; i < mixes.size(); i++) {
            if (!subjects.mixes().contains(mixes.get(i))) {
                throw g.refuse(
                        "where.mix[" + i + "]",
                        "expected one of the study's mixes (" + String.join(", ", subjects.mixes()) + "), got '"
                                + mixes.get(i) + "'");
            }
        }
        return where;
    }

    /** A figure's published values. */
    static List<Study.PaperValue> paper(Fields g) {
        return g.list("paper", false, p -> {
            p.only(ordered("series", "x", "y"));
            return new Study.PaperValue(p.text("series"), p.scalar("x"), p.number("y"));
        });
    }

    static Study.Axis axis(Fields a, String otherwise) {
        a.only(ordered("key", "label"));
        return new Study.Axis(a.text("key", otherwise), a.has("label") ? a.text("label") : null);
    }

    private static String hash(JsonNode root) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256")
                    .digest(JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException | JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
