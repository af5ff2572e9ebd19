package org.bgbench.study;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a study's plan: every point in order through a {@link PointExecutor}, each point's result kept under
 * {@code OUT/points/}, and after every point study.json, one CSV per measure and the report rewritten whole, so a
 * stop or a failure keeps everything measured. A resume reads study.json back and measures only the points not done.
 */
public final class StudyRun {
    private final StudyPlan plan;
    private final Path out;
    private final PointExecutor executor;
    private final StudyReportWriter report;
    private final String command;
    private final PrintWriter log;

    /** How a run ended. */
    public enum Ending {
        /** Every point is done. */
        COMPLETE,
        /** Some points failed; the others are done. */
        FAILURES,
        /** Stopped by a signal; a resume continues. */
        INTERRUPTED
    }

    /**
     * @param plan     the points
     * @param out      the study's directory
     * @param executor how a point is measured
     * @param report   the report written after every point
     * @param command  the command line, as study.json states it
     * @param log      where each point's line goes
     */
    public StudyRun(
            StudyPlan plan,
            Path out,
            PointExecutor executor,
            StudyReportWriter report,
            String command,
            PrintWriter log) {
        this.plan = plan;
        this.out = out;
        this.executor = executor;
        this.report = report;
        this.command = command;
        this.log = log;
    }

    /**
     * What a resume finds in {@code dir}: the points done before, by key, and when the study started; a directory
     * holding another study, another version of its file or another scale is refused in one line.
     */
    public static Map<String, PointRecord> resumable(StudyPlan plan, Path dir, String[] started) throws IOException {
        Path json = dir.resolve("study.json");
        if (!Files.isRegularFile(json)) {
            throw new StudyFileException(dir.toString(), "", "holds no study.json to resume (--resume)");
        }
        JsonNode doc;
        try {
            doc = StudyDocument.JSON.readTree(json.toFile());
        } catch (IOException e) {
            throw new StudyFileException(json.toString(), "", "cannot be read to resume (" + e.getMessage() + ")");
        }
        String name = doc.path("study").asText();
        if (!name.equals(plan.study().name())) {
            throw new StudyFileException(
                    json.toString(),
                    "study",
                    "is '" + name + "', not '" + plan.study().name() + "'; resume it with its own study (--resume)");
        }
        if (!doc.path("scale").asText().equals(plan.scale().key())) {
            throw new StudyFileException(
                    json.toString(),
                    "scale",
                    "is " + doc.path("scale").asText() + ", not " + plan.scale().key() + "; resume with --scale "
                            + doc.path("scale").asText());
        }
        if (!doc.path("study_hash").asText().equals(plan.study().hash())) {
            throw new StudyFileException(
                    json.toString(),
                    "study_hash",
                    "the study file changed since this study began; resume it with "
                            + "the file it began with, or start a new study in another --out");
        }
        started[0] = doc.path("started").asText(null);
        Map<String, JsonNode> recorded = StudyDocument.recordedPoints(doc);
        Map<String, PointRecord> done = new LinkedHashMap<>();
        // Every store's points, not only those of this run's --store: a resume of some stores keeps the others'.
        for (StudyPlan.Point p : plan.all().points()) {
            JsonNode r = recorded.get(p.key());
            if (r != null && r.path("status").asText().equals("done")) {
                Map<String, Double> measures = new LinkedHashMap<>();
                r.path("measures")
                        .fields()
                        .forEachRemaining(e -> measures.put(
                                e.getKey(),
                                e.getValue().isNumber() ? e.getValue().asDouble() : null));
                done.put(
                        p.key(),
                        new PointRecord(
                                p,
                                "done",
                                null,
                                r.path("result").asText(),
                                measures,
                                Curves.fromJson(r.path("curves"))));
            }
        }
        return done;
    }

    /** Runs every point not in {@code done} (from {@link #resumable}, or empty), keeping the files up to date. */
    public Ending run(Map<String, PointRecord> done, String startedAt) throws IOException {
        Files.createDirectories(out.resolve("points"));
        String started = startedAt != null ? startedAt : now();
        Map<String, PointRecord> records = new LinkedHashMap<>(done);
        int total = plan.points().size();
        long before =
                plan.points().stream().filter(p -> done.containsKey(p.key())).count();
        boolean failures = false;
        log.printf(
                Locale.ROOT,
                "bg: study %s at %s scale: %d points (%d done before), about %s of measured time%n",
                plan.study().name(),
                plan.scale().key(),
                total,
                before,
                StudyDurations.format(plan.measuredTime()));
        log.flush();
        write(started, records, false);
        for (StudyPlan.Group g : plan.groups()) {
            List<StudyPlan.Point> todo = g.points().stream()
                    .filter(p -> !records.containsKey(p.key()))
                    .toList();
            if (todo.isEmpty()) {
                continue;
            }
            try (PointExecutor.Session session = executor.open(g, keys(g), plan.times())) {
                for (StudyPlan.Point p : todo) {
                    Path result = out.resolve(p.resultPath());
                    PointExecutor.Outcome o;
                    try {
                        o = session.run(p, result);
                    } catch (Exception e) {
                        o = new PointExecutor.Outcome(PointExecutor.Status.FAILED, oneLine(e));
                    }
                    if (o.status() == PointExecutor.Status.INTERRUPTED) {
                        log.println("bg: study stopped at " + p.key() + "; it keeps the " + countDone(records)
                                + " points measured; --resume " + out + " continues");
                        write(started, records, false);
                        return Ending.INTERRUPTED;
                    }
                    PointRecord r = record(p, o, result);
                    failures |= !r.done();
                    records.put(p.key(), r);
                    line(r, ++before, total);
                    write(started, records, false);
                }
            } catch (Exception e) {
                // The store could not be started or loaded: each of its points not yet measured fails with why.
                String why = oneLine(e);
                for (StudyPlan.Point p : todo) {
                    records.putIfAbsent(p.key(), new PointRecord(p, "failed", why, null, Map.of()));
                }
                failures = true;
                log.println("bg: study: " + g.name() + " failed (" + why + "); its points are marked failed");
                write(started, records, false);
            }
        }
        boolean complete = plan.all().points().stream()
                .allMatch(p ->
                        records.containsKey(p.key()) && records.get(p.key()).done());
        write(started, records, complete);
        return complete ? Ending.COMPLETE : failures ? Ending.FAILURES : Ending.COMPLETE;
    }

    private static long countDone(Map<String, PointRecord> records) {
        return records.values().stream().filter(PointRecord::done).count();
    }

    private void line(PointRecord r, long n, int total) {
        boolean rating = r.point().rating();
        Double tp = r.measures().get((rating ? Measure.SOAR : Measure.THROUGHPUT).key());
        log.printf(
                Locale.ROOT,
                "bg: study [%d/%d] %s: %s%n",
                n,
                total,
                r.point().key(),
                r.done()
                        ? (tp == null
                                ? "done"
                                : String.format(Locale.ROOT, rating ? "SoAR %,.0f actions/s" : "%,.0f actions/s", tp))
                        : "failed (" + r.error() + ")");
        log.flush();
    }

    /** The group's keys: the scale's graph and workload keys, then the store's, placeholders resolved. */
    Map<String, String> keys(StudyPlan.Group g) throws IOException {
        Path data = dataDir(out, g);
        Files.createDirectories(data);
        Map<String, String> k = new LinkedHashMap<>(plan.graphKeys(g));
        g.keys()
                .forEach((key, v) -> k.put(
                        key,
                        v.replace("${data}", data.toString())
                                .replace("${group}", plan.study().name() + "-" + g.name())));
        return k;
    }

    /** The group's own data directory under the study's directory {@code out} ({@code ${data}}). */
    public static Path dataDir(Path out, StudyPlan.Group g) {
        return out.resolve("data").resolve(g.name()).toAbsolutePath();
    }

    private PointRecord record(StudyPlan.Point p, PointExecutor.Outcome o, Path result) {
        Map<String, Double> measures = new LinkedHashMap<>();
        Map<String, List<PointRecord.CurvePoint>> curves = Map.of();
        String rel = Files.isRegularFile(result) ? p.resultPath() : null;
        if (rel != null) {
            try {
                JsonNode r = StudyDocument.JSON.readTree(result.toFile());
                for (Measure m : plan.study().output().measures()) {
                    measures.put(m.key(), m.of(r));
                }
                curves = Curves.of(plan.study(), p, r);
            } catch (IOException e) {
                return new PointRecord(
                        p, "failed", "its result cannot be read (" + e.getMessage() + ")", rel, Map.of());
            }
        }
        if (o.status() == PointExecutor.Status.DONE && rel != null) {
            return new PointRecord(p, "done", null, rel, measures, curves);
        }
        String why = o.error() != null ? o.error() : "no result was written";
        return new PointRecord(p, "failed", why, rel, measures);
    }

    private void write(String started, Map<String, PointRecord> records, boolean complete) throws IOException {
        // In plan order, whatever order they were measured in (a resume fills gaps).
        List<PointRecord> ordered = new ArrayList<>();
        for (StudyPlan.Point p : plan.all().points()) {
            PointRecord r = records.get(p.key());
            if (r != null) {
                ordered.add(r);
            }
        }
        Path json = out.resolve("study.json");
        AtomicFiles.write(
                json, StudyDocument.render(plan, new StudyDocument.Header(started, now(), command), ordered, complete));
        for (Measure m : plan.study().output().measures()) {
            AtomicFiles.write(out.resolve(m.key() + ".csv"), StudyDocument.csv(plan, m, ordered));
        }
        report.write(json, out.resolve("report.html"));
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            m = e.getClass().getSimpleName();
        }
        return m.lines().findFirst().orElse(m).strip();
    }
}
