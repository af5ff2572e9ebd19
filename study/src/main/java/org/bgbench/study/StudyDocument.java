package org.bgbench.study;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/** study.json: the study, the machine, every deviation from the paper, the figures and every point so far. */
final class StudyDocument {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * What the document says besides the points.
     *
     * @param started when the study began (kept by a resume)
     * @param updated now
     * @param command the command line that runs it
     */
    record Header(String started, String updated, String command) {}

    private StudyDocument() {}

    static String render(StudyPlan plan, Header header, List<PointRecord> points, boolean complete) {
        Study s = plan.study();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("format", "bg-study/1");
        doc.put("study", s.name());
        doc.put("kind", s.subjects().kind().key());
        doc.put("title", s.title());
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("paper", s.source().paper());
        source.put("where", s.source().where());
        source.put("finding", s.source().finding());
        doc.put("source", source);
        doc.put("scale", plan.scale().key());
        doc.put("study_hash", s.hash());
        doc.put("complete", complete);
        doc.put("started", header.started());
        doc.put("updated", header.updated());
        doc.put("command", header.command());
        doc.put("machine", Machine.describe());
        doc.put("deviations", deviations(plan));
        doc.put(
                "figures",
                s.output().figures().stream()
                        .map(f -> figure(f, plan.all().points(), points))
                        .toList());
        doc.put("findings", s.output().findings());
        doc.put("points", planned(plan.all().points(), points));
        try {
            return JSON.writeValueAsString(doc) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The study's own deviations, then every setting of this scale that differs from the paper's scale. */
    static List<String> deviations(StudyPlan plan) {
        List<String> out = new ArrayList<>(plan.study().output().deviations());
        Study.ScalePlan here = plan.grid();
        Study.ScalePlan paper = plan.study().scales().get(Scale.PAPER);
        for (Map.Entry<String, String> e : paper.graph().entrySet()) {
            String v = here.graph().get(e.getKey());
            if (v != null && !v.equals(e.getValue())) {
                out.add(e.getKey() + "=" + v + " (paper: " + e.getValue() + ")");
            }
        }
        for (Map.Entry<String, String> e : here.graph().entrySet()) {
            if (!paper.graph().containsKey(e.getKey())) {
                out.add(e.getKey() + "=" + e.getValue() + " (the paper's scale does not set it)");
            }
        }
        for (Study.Setting s : plan.study().subjects().settings()) {
            Map<String, String> mine = StudyPlan.atScale(s, here).keys();
            Map<String, String> theirs = StudyPlan.atScale(s, paper).keys();
            mine.forEach((k, v) -> {
                if (!v.equals(theirs.get(k))) {
                    out.add(s.name() + ": " + k + "=" + v + " (paper: " + theirs.getOrDefault(k, "not set") + ")");
                }
            });
        }
        if (!here.threads().equals(paper.threads())) {
            out.add("T = " + ints(here.threads()) + " (paper: " + ints(paper.threads()) + ")");
        }
        if (!here.duration().equals(paper.duration())) {
            out.add("points of " + secs(here.duration()) + " (paper: " + secs(paper.duration()) + ")");
        }
        if (!here.warmup().equals(paper.warmup())) {
            out.add("warm-up of " + secs(here.warmup()) + " (paper: " + secs(paper.warmup()) + ")");
        }
        if (here.repetitions() != paper.repetitions()) {
            out.add(here.repetitions() + " repetition(s) per point (paper: " + paper.repetitions() + ")");
        }
        if (plan.study().subjects().kind() == Study.Kind.RATE) {
            out.addAll(ratingDeviations(plan));
        }
        return out;
    }

    /**
     * Every rating option and setting graph key of this scale that differs from the paper scale's: once when every
     * group differs alike, else per setting.
     */
    private static List<String> ratingDeviations(StudyPlan plan) {
        StudyPlan paperPlan = StudyPlan.of(plan.study(), Scale.PAPER, List.of());
        List<StudyPlan.Group> groups = plan.all().groups();
        // deviation text → the settings it holds for
        Map<String, List<String>> where = new LinkedHashMap<>();
        for (int i = 0; i < groups.size(); i++) {
            StudyPlan.Group g = groups.get(i);
            StudyPlan.Group p = paperPlan.groups().get(i);
            Map<String, Object> there = p.rating().toMap();
            String who = g.setting() == null ? "" : g.setting().name();
            g.rating().toMap().forEach((k, v) -> {
                if (!v.equals(there.get(k))) {
                    where.computeIfAbsent(k + "=" + v + " (paper: " + there.get(k) + ")", x -> new ArrayList<>())
                            .add(who);
                }
            });
            Map<String, String> pk = paperPlan.graphKeys(p);
            RateStudyCheck.graph(g.setting(), plan.scale()).forEach((k, v) -> {
                if (!v.equals(pk.get(k))) {
                    where.computeIfAbsent(k + "=" + v + " (paper: " + pk.get(k) + ")", x -> new ArrayList<>())
                            .add(who);
                }
            });
        }
        List<String> out = new ArrayList<>();
        where.forEach((text, who) -> {
            List<String> named =
                    who.stream().distinct().filter(w -> !w.isEmpty()).toList();
            boolean all = who.size() == groups.size() || named.isEmpty();
            out.add(all ? text : text + " for " + String.join(", ", named));
        });
        return out;
    }

    private static String ints(List<Integer> v) {
        return v.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    private static String secs(Duration d) {
        return StudyDurations.format(d);
    }

    /**
     * Every point of the whole plan in its order: the ones run with their records, the others {@code pending}, so a
     * reader counts the points still to measure (a run of some of the stores, or one stopped early).
     */
    private static List<Map<String, Object>> planned(List<StudyPlan.Point> plan, List<PointRecord> points) {
        Map<String, PointRecord> byKey = new LinkedHashMap<>();
        points.forEach(r -> byKey.put(r.point().key(), r));
        List<Map<String, Object>> out = new ArrayList<>();
        for (StudyPlan.Point p : plan) {
            PointRecord r = byKey.remove(p.key());
            out.add(point(r != null ? r : new PointRecord(p, "pending", null, null, Map.of())));
        }
        byKey.values().forEach(r -> out.add(point(r)));
        return out;
    }

    private static Map<String, Object> point(PointRecord r) {
        StudyPlan.Point p = r.point();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", p.key());
        m.put("store", p.store());
        m.put("setting", p.setting());
        m.put("mix", p.mix());
        m.put("threads", p.threads());
        m.put("repetition", p.repetition());
        m.put("status", r.status());
        m.put("error", r.error());
        m.put("result", r.result());
        m.put("measures", r.measures());
        if (!r.curves().isEmpty()) {
            m.put("curves", Curves.json(r.curves()));
        }
        return m;
    }

    /** The label of the series {@code p} belongs to in a figure that makes series by {@code by}. */
    static String seriesName(StudyPlan.Point p, List<String> by) {
        if (by.isEmpty()) {
            return "measured";
        }
        return by.stream().map(p::dimension).filter(v -> !v.isEmpty()).collect(Collectors.joining(" "));
    }

    static boolean shows(Study.Figure f, StudyPlan.Point p) {
        return f.where().entrySet().stream().allMatch(e -> e.getValue().contains(p.dimension(e.getKey())));
    }

    /**
     * The figure's series over every planned point it shows, measured or not: a point not measured yet has y null, so
     * a finding over a whole curve says it lacks data rather than judging part of it.
     */
    private static Map<String, Object> figure(Study.Figure f, List<StudyPlan.Point> planned, List<PointRecord> points) {
        List<Map<String, Object>> out =
                f.isCurve() ? Curves.series(f, planned, points) : valueSeries(f, planned, points);
        Map<String, Object> fig = new LinkedHashMap<>();
        fig.put("id", f.id());
        fig.put("title", f.title());
        fig.put("x", axis(f.x()));
        fig.put("y", axis(f.y()));
        if (f.isCurve()) {
            fig.put("curve", f.curve());
        }
        fig.put("series", out);
        List<Map<String, Object>> paper = new ArrayList<>();
        for (Study.PaperValue v : f.paper()) {
            Map<String, Object> pv = new LinkedHashMap<>();
            pv.put("series", v.series());
            pv.put("x", v.x());
            pv.put("y", v.y());
            paper.add(pv);
        }
        fig.put("paper", paper);
        return fig;
    }

    /** The series of a figure of one measure per point: a point per x, the median over its repetitions. */
    private static List<Map<String, Object>> valueSeries(
            Study.Figure f, List<StudyPlan.Point> planned, List<PointRecord> points) {
        Measure m = Measure.of(f.y().key()).orElseThrow();
        Map<String, PointRecord> done = new LinkedHashMap<>();
        for (PointRecord r : points) {
            if (r.done()) {
                done.put(r.point().key(), r);
            }
        }
        // series name → x → the done points' records, in the order they were planned
        Map<String, Map<String, List<PointRecord>>> series = new LinkedHashMap<>();
        for (StudyPlan.Point p : planned) {
            if (!shows(f, p)) {
                continue;
            }
            List<PointRecord> at = series.computeIfAbsent(seriesName(p, f.seriesBy()), k -> new LinkedHashMap<>())
                    .computeIfAbsent(p.dimension(f.x().key()), k -> new ArrayList<>());
            PointRecord r = done.get(p.key());
            if (r != null) {
                at.add(r);
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        series.forEach((name, byX) -> {
            List<Map<String, Object>> pts = new ArrayList<>();
            byX.forEach((x, rs) -> {
                List<Double> runs = rs.stream()
                        .map(r -> r.measures().get(m.key()))
                        .filter(Objects::nonNull)
                        .toList();
                Map<String, Object> pt = new LinkedHashMap<>();
                pt.put("x", f.x().key().equals("threads") ? (Object) Integer.parseInt(x) : x);
                pt.put("y", median(runs));
                pt.put("runs", runs);
                pt.put("results", rs.stream().map(PointRecord::result).toList());
                pts.add(pt);
            });
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", name);
            s.put("points", pts);
            out.add(s);
        });
        return out;
    }

    private static Map<String, Object> axis(Study.Axis a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", a.key());
        m.put("label", a.label());
        return m;
    }

    /** The median of {@code v} (the mean of the middle two for an even count), null for none. */
    static Double median(List<Double> v) {
        if (v.isEmpty()) {
            return null;
        }
        List<Double> s = v.stream().sorted().toList();
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    /**
     * One measure's CSV: a row per series (store, setting and mix) and T with the median over the repetitions and
     * each repetition's value.
     */
    static String csv(StudyPlan plan, Measure m, List<PointRecord> points) {
        Map<String, List<PointRecord>> rows = new LinkedHashMap<>();
        for (PointRecord r : points) {
            if (r.done()) {
                StudyPlan.Point p = r.point();
                // A rating has no T: its row's x is its mix.
                String series =
                        seriesName(p, p.rating() ? List.of("store", "setting") : List.of("store", "setting", "mix"));
                rows.computeIfAbsent(series + "\u0000" + (p.rating() ? p.mix() : p.threads()), k -> new ArrayList<>())
                        .add(r);
            }
        }
        int reps = plan.grid().repetitions();
        StringBuilder c = new StringBuilder("series,x,median");
        for (int i = 1; i <= reps; i++) {
            c.append(",run").append(i);
        }
        c.append('\n');
        rows.forEach((k, rs) -> {
            String[] sx = k.split("\u0000");
            List<Double> runs = rs.stream()
                    .map(r -> r.measures().get(m.key()))
                    .filter(Objects::nonNull)
                    .toList();
            c.append(quote(sx[0])).append(',').append(sx[1]).append(',').append(num(median(runs)));
            for (int i = 0; i < reps; i++) {
                c.append(',').append(i < runs.size() ? num(runs.get(i)) : "");
            }
            c.append('\n');
        });
        return c.toString();
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private static String num(Double d) {
        return d == null ? "" : String.format(Locale.ROOT, "%.4f", d);
    }

    /** The points recorded in an earlier study.json, by key. */
    static Map<String, JsonNode> recordedPoints(JsonNode doc) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (JsonNode p : doc.path("points")) {
            out.put(p.path("key").asText(), p);
        }
        return out;
    }
}
