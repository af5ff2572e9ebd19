package org.bgbench.runner.rating;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ReportFiles;
import org.bgbench.rating.Experiment;
import org.bgbench.rating.ExperimentFile;
import org.bgbench.rating.Rating;
import org.bgbench.rating.RatingHeadline;
import org.bgbench.rating.RatingListener;
import org.bgbench.rating.RatingReport;
import org.bgbench.rating.RatingResult;
import org.bgbench.rating.RatingSettings;
import org.bgbench.store.ErrorText;

/**
 * A whole rating: the search over T on a {@link RatingRunner}, then {@code rating.json} (the result, the rating-time
 * model, the resets' notes), {@code rating.svg} and {@code rating.html} in the rating's directory.
 */
public final class RatingSession {
    /** The experiments of a rating as they finish, one JSON object a line, in the rating's directory. */
    public static final String PROGRESS_FILE = "experiments.jsonl";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper LINES = new ObjectMapper();

    /**
     * What a rating found, how long it took and where its report is; {@code unwritten} says why each file of it that
     * could not be written (an experiment's result, a report) was not; {@code noisyHost} says what else competed
     * for the machine's CPU during the experiments, null when nothing did.
     */
    public record Report(
            RatingResult result,
            RatingTime time,
            List<String> notes,
            Path dir,
            RatingReport.Axis axis,
            List<String> unwritten,
            String noisyHost) {
        /** The lines a user reads at the end of {@code bg rate}. */
        public String describe() {
            StringBuilder sb = new StringBuilder();
            sb.append(System.lineSeparator());
            sb.append(RatingHeadline.lines(result, axis, noisyHost));
            sb.append(String.format(Locale.ROOT, "%d experiments in %.0f s%n", result.experimentsRun(), time.total()));
            sb.append(time.describe());
            notes.forEach(n -> sb.append("  ! ").append(n).append(System.lineSeparator()));
            result.warnings().forEach(w -> sb.append("  ! ").append(w).append(System.lineSeparator()));
            result.stopReason()
                    .ifPresent(r -> sb.append("Stopped early: ").append(r).append(System.lineSeparator()));
            sb.append("Report: ")
                    .append(dir.resolve("rating.html").toAbsolutePath())
                    .append(System.lineSeparator());
            return sb.toString();
        }
    }

    private RatingSession() {}

    /**
     * Rates with {@code runner} on {@code executor}, tells {@code listener} each experiment as it finishes, and writes
     * the reports into {@code dir}.
     *
     * @param startNanos when the command started, for ζ (what it spent before the first experiment)
     * @param extra      keys added to {@code rating.json} (store, workload, workers)
     */
    public static Report rate(
            RatingSettings settings,
            RatingRunner runner,
            ExperimentExecutor executor,
            RatingListener listener,
            Duration delta,
            Path dir,
            long startNanos,
            String title,
            Map<String, Object> extra)
            throws IOException {
        return rate(
                settings, runner, executor, listener, delta, dir, startNanos, title, extra, RatingReport.Axis.THREADS);
    }

    /** The same, for a search over the quantity {@code axis} names (the open model's arrival rate). */
    public static Report rate(
            RatingSettings settings,
            RatingRunner runner,
            ExperimentExecutor executor,
            RatingListener listener,
            Duration delta,
            Path dir,
            long startNanos,
            String title,
            Map<String, Object> extra,
            RatingReport.Axis axis)
            throws IOException {
        double zeta = (System.nanoTime() - startNanos) / 1e9;
        Files.createDirectories(dir);
        // Space for the reports before the experiments can fill the disk; a report still unwritten is reported.
        ReportFiles files = new ReportFiles();
        List.of("rating.json", "rating.svg", "rating.html").forEach(f -> files.reserve(dir.resolve(f)));
        RatingResult result = new Rating(settings, runner)
                .listener(progressFile(dir, listener))
                .rate();
        String finishError = null;
        try {
            executor.finish();
        } catch (RuntimeException e) {
            // A store that died with the rating cannot take BG's last state mark; what was measured is written anyway.
            finishError = ErrorText.message(e);
        }
        double total = (System.nanoTime() - startNanos) / 1e9;
        RatingTime time = RatingTime.of(result, runner, zeta, delta, total);
        Map<String, Object> json = new LinkedHashMap<>(result.toMap());
        String noisyHost =
                HostNoise.describe(runner.results().stream().map(RunResult::cpu).toList());
        json.put("noisy_host", noisyHost);
        json.put("rating_time", time.toMap());
        if (!runner.notes().isEmpty()) {
            json.put("reset_notes", runner.notes());
        }
        if (finishError != null) {
            json.put("finish_error", "BG could not record its state in the store after the rating: " + finishError);
        }
        if (!runner.unwritten().isEmpty()) {
            json.put("unwritten_results", runner.unwritten());
        }
        json.putAll(extra);
        runner.unwritten().forEach(files::failed);
        files.write(dir.resolve("rating.json"), JSON.writeValueAsString(json));
        files.write(dir.resolve("rating.svg"), RatingReport.svg(result, axis));
        files.write(
                dir.resolve("rating.html"),
                RatingReport.html(result, title, axis, experimentFiles(result, runner), noisyHost));
        files.release();
        return new Report(result, time, List.copyOf(runner.notes()), dir, axis, files.failures(), noisyHost);
    }

    private static Map<Integer, ExperimentFile> experimentFiles(RatingResult result, RatingRunner runner) {
        return experimentFiles(result.experiments(), runner.runFiles());
    }

    /**
     * Each experiment's result file and latency, by its index: the experiments run in this session (not resumed
     * ones) took the runner's files in the order it ran them.
     */
    static Map<Integer, ExperimentFile> experimentFiles(List<Experiment> experiments, List<ExperimentFile> runFiles) {
        Map<Integer, ExperimentFile> m = new LinkedHashMap<>();
        int next = 0;
        for (Experiment e : experiments) {
            if (e.resumed()) {
                continue;
            }
            ExperimentFile f = next < runFiles.size() ? runFiles.get(next) : null;
            next++;
            if (f != null) {
                m.put(e.index(), f);
            }
        }
        return m;
    }

    /**
     * Also appends each finished experiment, with its SLA verdict, to {@code experiments.jsonl} in the rating's
     * directory, so a viewer (the deck) can plot a rating while it runs; a write failure only ends that file.
     */
    private static RatingListener progressFile(Path dir, RatingListener listener) {
        Path file = dir.resolve(PROGRESS_FILE);
        boolean[] failed = {false};
        return new RatingListener() {
            @Override
            public void experimentFinished(Experiment e) {
                listener.experimentFinished(e);
                if (!failed[0]) {
                    try {
                        Files.writeString(
                                file,
                                LINES.writeValueAsString(e.toMap()) + "\n",
                                StandardOpenOption.CREATE,
                                StandardOpenOption.APPEND);
                    } catch (IOException | RuntimeException x) {
                        failed[0] = true;
                    }
                }
            }

            @Override
            public void warning(String warning) {
                listener.warning(warning);
            }
        };
    }
}
