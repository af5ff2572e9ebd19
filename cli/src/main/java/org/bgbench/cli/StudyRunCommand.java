package org.bgbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.bgbench.cluster.coordinator.ClusterCoordinator;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.runner.OutputGuard;
import org.bgbench.study.PointRecord;
import org.bgbench.study.Study;
import org.bgbench.study.StudyFileException;
import org.bgbench.study.StudyPlan;
import org.bgbench.study.StudyReportWriter;
import org.bgbench.study.StudyRun;
import org.bgbench.study.report.Findings;
import org.bgbench.study.report.StudyReport;
import org.bgbench.study.report.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bg study run}: every point of a study measured in order, study.json and a CSV per measure rewritten after
 * each, so Ctrl-C or a failure keeps what was measured and {@code --resume} continues.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        header = "Run a study: every point, with study.json and its report after each.",
        description =
                "Start or open each store of the study, load its graph once, and measure every point (store, "
                        + "setting, mix, T, repetition) in order, resetting the store between points the cheapest way it "
                        + "offers. After every point OUT/study.json, OUT/report.html, OUT/<measure>.csv and each "
                        + "point's result under OUT/points/ are on disk, so Ctrl-C keeps everything measured and --resume OUT continues.")
final class StudyRunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StudyChoice choice = new StudyChoice();

    @Option(
            names = "--store",
            paramLabel = "STORE",
            split = ",",
            description = "Run only these of the study's stores (repeatable; default: all of them).")
    List<String> stores = new ArrayList<>();

    @Option(
            names = "-p",
            paramLabel = "KEY=VALUE",
            description = "A store key over the study's, for the stores --store names (repeatable). Given for a store"
                    + " whose study starts its server, BG starts none and uses your server: give all its keys"
                    + " (e.g. -p mariadb.url=...).")
    List<String> keys = new ArrayList<>();

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "The study's directory (default runs/study-<name>-<scale>-<time>).")
    Path out;

    @Option(
            names = "--resume",
            paramLabel = "DIR",
            description = "Continue the study in DIR: measure only the points its study.json does not hold as done.")
    Path resume;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    /** The report written after every point: report.html beside study.json (docs/study-report.md). */
    StudyReportWriter report = StudyReport::write;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        Study s = StudyCommand.resolve(choice.study);
        StudyPlan plan = StudyCommand.plan(s, StudyCommand.scale(choice.scale), stores);
        Map<String, String> userKeys = userKeys();
        StudyServers.check(s, plan, userKeys);
        Path dir = directory(s, plan);
        Map<String, PointRecord> done = Map.of();
        String[] started = {null};
        if (resume != null) {
            try {
                done = StudyRun.resumable(plan, dir, started);
            } catch (StudyFileException e) {
                throw new InvalidParameterException("--resume", e.getMessage());
            }
        }
        StudyCapacity.check(plan, dir, measuredGroups(plan, done));
        String command =
                "bg " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        StudyRun.Ending ending;
        if (cluster.active()) {
            if (s.subjects().kind() == Study.Kind.RATE) {
                throw new InvalidParameterException(
                        "--workers", "a rate study rates on this host only; bg rate --workers rates on workers");
            }
            for (StudyPlan.Group g : plan.groups()) {
                if (StudyExecutor.startsServer(g, userKeys)) {
                    throw new InvalidParameterException(
                            "--workers",
                            g.store().id() + " is a server BG would start on this host; on workers give the keys of"
                                    + " a server they reach with --store "
                                    + g.store().id() + " -p KEY=VALUE");
                }
            }
            if (cluster.keepGoing) {
                throw new InvalidParameterException(
                        "--keep-going", "bg study run stops at a failed worker and resumes with --resume");
            }
            try (ClusterCoordinator c = cluster.connect(err)) {
                ending = new StudyRun(
                                plan, dir, new StudyClusterExecutor(c, cluster, userKeys, err), report, command, err)
                        .run(done, started[0]);
            }
        } else {
            ending = new StudyRun(plan, dir, new StudyExecutor(err, dir, userKeys), report, command, err)
                    .run(done, started[0]);
        }
        findings(stdout, dir.resolve("study.json"));
        stdout.println("Study: " + dir.toAbsolutePath().resolve("study.json"));
        stdout.println("Report: " + dir.toAbsolutePath().resolve("report.html"));
        stdout.flush();
        return ending == StudyRun.Ending.COMPLETE ? 0 : Bg.FAILED;
    }

    /** The groups whose every point a resumed study holds as measured: they load nothing more. */
    private static Set<String> measuredGroups(StudyPlan plan, Map<String, PointRecord> done) {
        Set<String> names = new HashSet<>();
        for (StudyPlan.Group g : plan.groups()) {
            if (g.points().stream().allMatch(p -> done.containsKey(p.key()))) {
                names.add(g.name());
            }
        }
        return names;
    }

    /** The user's {@code -p} keys, which need {@code --store}: they are the keys of the stores it names. */
    private Map<String, String> userKeys() {
        Map<String, String> k = new java.util.LinkedHashMap<>();
        for (String kv : keys) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new InvalidParameterException("-p", "expected KEY=VALUE, got '" + kv + "'");
            }
            k.put(kv.substring(0, eq).strip(), kv.substring(eq + 1));
        }
        if (!k.isEmpty() && stores.isEmpty()) {
            throw new InvalidParameterException(
                    "-p", "give --store too: -p keys are those of the stores --store names");
        }
        return k;
    }

    /** Each finding's verdict, as the report computes it: the paper's claim, ours, and whether they agree. */
    private static void findings(PrintWriter out, Path studyJson) {
        JsonNode doc;
        try {
            doc = new ObjectMapper().readTree(studyJson.toFile());
        } catch (IOException e) {
            return; // the study wrote no study.json (nothing was measured): nothing to judge
        }
        List<Verdict> verdicts = Findings.evaluateAll(org.bgbench.study.report.Study.of(doc));
        if (verdicts.isEmpty()) {
            return;
        }
        out.println("Findings:");
        for (Verdict v : verdicts) {
            out.println("  " + v.id() + ": " + v.outcome().words() + " — "
                    + v.claim().ours());
        }
    }

    private Path directory(Study s, StudyPlan plan) {
        if (resume != null) {
            if (out != null
                    && !out.toAbsolutePath()
                            .normalize()
                            .equals(resume.toAbsolutePath().normalize())) {
                throw new InvalidParameterException(
                        "--out", "a resumed study writes to its own directory; give --resume DIR alone");
            }
            return resume;
        }
        Path dir = out != null
                ? out
                : Path.of(
                        "runs",
                        "study-" + s.name() + "-" + plan.scale().key() + "-"
                                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        if (Files.exists(dir.resolve("study.json"))) {
            throw new InvalidParameterException(
                    "--out", dir + " holds a study already; --resume " + dir + " continues it, or give another --out");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new InvalidParameterException("--out", dir + " is a file; give a directory");
        }
        OutputGuard.directory("--out", dir);
        return dir;
    }
}
