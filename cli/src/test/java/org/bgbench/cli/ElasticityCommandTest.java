package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.runner.Interrupts;
import org.bgbench.scaling.elasticity.Curves;
import org.bgbench.scaling.elasticity.DeltaStability;
import org.bgbench.scaling.elasticity.ElasticityScore;
import org.bgbench.scaling.elasticity.SetPoint;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bg elasticity end to end on the scripted store: request sets whose least times the store's script fixes (sets 14 to
 * 17, right after the add, four times slower). A loaded machine adds time to any set, so the tests assert what holds
 * on every machine: the script's floors, the phases, and that the moments and scores are the paper's rules applied to
 * the points BG measured.
 */
@Tag("server")
class ElasticityCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        Interrupts.reset();
    }

    private int bg(List<String> args) {
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    }

    /**
     * One thread per node; 2 warm-up sets (0-1), then baseline points of 2 sets each (6: sets 2-13), then the add; 5 ms
     * per action, and in the slow sets (14-17 in the first test: 2 points) 20 ms.
     */
    private List<String> scripted(int users, int requests, int nodes, int baseline, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "elasticity",
                "--store",
                "scripted",
                "--load",
                "-p",
                "usercount=" + users,
                "-p",
                "friendcountperuser=10",
                "-p",
                "resourcecountperuser=2",
                "-p",
                "verify.sample=0",
                "-p",
                "scripted.base-ms=5",
                "-p",
                "memory.name=elastic-" + dir.getFileName() + "-" + users,
                "--nodes",
                String.valueOf(nodes),
                "--threads-per-node",
                "1",
                "--request-set",
                String.valueOf(requests),
                "--repeats",
                "2",
                "--warmup-sets",
                "2",
                "--baseline",
                String.valueOf(baseline),
                "--after",
                "3",
                "--max-points",
                "40",
                "--interpolation",
                "linear"));
        a.addAll(List.of(more));
        return a;
    }

    @Test
    void aScriptedSlowdownAfterTheAddIsTimedAndScoredByThePapersRules() throws Exception {
        Path file = dir.resolve("e.json");
        int code = bg(scripted(
                200,
                40,
                1,
                6,
                "-p",
                "scripted.slow-ms=20",
                "-p",
                "scripted.slow-sets=14-17",
                "--add",
                "true",
                // 30 × the baseline's median delta: a loaded machine's late wake-ups do not keep the store from
                // counting as stable again within --max-points.
                "--margin",
                "30",
                "--read-pct",
                "100",
                "--out",
                file.toString()));
        assertThat(code).as(err.toString() + out).isZero();
        assertThat(err.toString()).contains("ran on this one machine", "not the store's elasticity");
        JsonNode r = new ObjectMapper().readTree(file.toFile());
        assertThat(r.path("status").asText()).isEqualTo("stable");
        assertThat(r.path("adds").get(0).path("exitCode").asInt()).isZero();
        List<SetPoint> points = new ArrayList<>();
        for (JsonNode p : r.path("points")) {
            points.add(new SetPoint(
                    points.size(),
                    p.path("start").asDouble(),
                    p.path("t").asDouble(),
                    p.path("mean").asDouble(),
                    p.path("sd").asDouble(),
                    p.path("n").asInt(),
                    p.path("meanLatency").asDouble(),
                    SetPoint.Phase.valueOf(p.path("phase").asText().toUpperCase())));
        }
        // Only what holds on any machine is asserted: a loaded one (late wake-ups, CPU taken by others) adds time to
        // every set, so how much longer than the script a set took, and so the deltas, are not known beforehand.
        // The script's floor: no set is faster than its actions' scripted times, 40 × 5 ms; the slow sets 14-17 are
        // points 6-7 (2 warm-up sets, then 2 sets a point), 40 × 20 ms. Reads only: a write that finds nothing to
        // do (an accept without a pending invitation) is a no-op that never reaches the store.
        for (SetPoint p : points) {
            double floor = p.index() == 6 || p.index() == 7 ? 40 * 0.020 : 40 * 0.005;
            assertThat(p.mean()).as("point " + p.index() + "\n" + out).isGreaterThanOrEqualTo(floor);
        }
        // The baseline (points 0-5), then the add; the first point that can end the transition is 11 (5 points
        // that started once the add had ended, which is after point 6 at the earliest), so 6-7 are in it.
        assertThat(points.subList(0, 6)).allMatch(p -> p.phase() == SetPoint.Phase.BASELINE);
        int stable = (int) points.stream()
                        .filter(p -> p.phase() == SetPoint.Phase.TRANSITION)
                        .count()
                + 5;
        assertThat(stable).isGreaterThanOrEqualTo(11);
        assertThat(points.subList(6, stable + 1)).allMatch(p -> p.phase() == SetPoint.Phase.TRANSITION);
        assertThat(points.subList(stable + 1, points.size()))
                .hasSize(3)
                .allMatch(p -> p.phase() == SetPoint.Phase.STABLE);
        // The moments on the test's clock: the add began after the baseline and had ended by the time the store
        // counted as settled (no --settled command: at the end of the point in which the add was seen to end).
        double addAt = r.path("addAt").asDouble();
        double settledAt = r.path("settledAt").asDouble();
        assertThat(addAt).isGreaterThanOrEqualTo(points.get(5).end());
        assertThat(r.path("adds").get(0).path("t").asDouble()).isBetween(addAt, settledAt);
        assertThat(settledAt).isGreaterThanOrEqualTo(points.get(6).end());
        // The stability rule on the points BG measured: the median delta of the baseline; the store is stable at the
        // first point whose last 5 deltas, of points that started once it had settled, are within 30 × that median.
        double median = DeltaStability.medianDelta(points.subList(0, 6));
        assertThat(r.path("medianDelta").asDouble()).isEqualTo(median);
        for (int k = 6; k < stable; k++) {
            assertThat(DeltaStability.endsStable(points.subList(0, k + 1), settledAt, 30 * median, 5))
                    .as("stable at point " + k + "\n" + out)
                    .isFalse();
        }
        assertThat(DeltaStability.endsStable(points.subList(0, stable + 1), settledAt, 30 * median, 5))
                .isTrue();
        assertThat(r.path("stableAt").asDouble()).isEqualTo(points.get(stable).end());
        // The score of the measured curve: the baseline before, the 3 stable points after, linear interpolation.
        ElasticityScore expected = ElasticityScore.of(
                points.subList(0, 6),
                points,
                points.subList(stable + 1, points.size()),
                addAt,
                r.path("stableAt").asDouble(),
                Curves.Interpolation.LINEAR);
        JsonNode score = r.path("score");
        assertThat(score.path("a").asDouble()).isCloseTo(expected.a(), within(1e-9 * expected.a()));
        assertThat(score.path("rt1").asDouble()).isCloseTo(expected.rt1(), within(1e-12));
        assertThat(score.path("elasticity").asDouble())
                .isCloseTo(expected.elasticity(), within(1e-9 * expected.elasticity()));
        assertThat(Files.readString(dir.resolve("e.svg"))).startsWith("<svg").contains(">add<", ">stable<");
        assertThat(out.toString()).contains("Stabilisation time:", "Elasticity score:");
        // The drift warning is the rule's on the measured baseline (a loaded machine can make it drift).
        DeltaStability.drift(points.subList(0, 6), median)
                .ifPresentOrElse(
                        w -> assertThat(err.toString()).contains(w),
                        () -> assertThat(err.toString()).doesNotContain("baseline was not stable"));
    }

    @Test
    void aFailingAddKeepsThePointsAndSaysWhy() throws Exception {
        Path file = dir.resolve("f.json");
        int code = bg(scripted(
                200, 20, 1, 3, "--add", "echo cannot reach the new node >&2; exit 3", "--out", file.toString()));
        assertThat(code).isEqualTo(Bg.FAILED);
        assertThat(out.toString()).contains("add-failed", "exited with 3", "cannot reach the new node");
        JsonNode r = new ObjectMapper().readTree(file.toFile());
        assertThat(r.path("status").asText()).isEqualTo("add-failed");
        assertThat(r.path("points").size()).isGreaterThanOrEqualTo(4);
        assertThat(Files.readString(dir.resolve("f.add.log"))).contains("cannot reach the new node");
    }

    @Test
    void theScalabilityScoreComparesTwoBaselinesWithEverythingDoubled() throws Exception {
        Path n = dir.resolve("n.json");
        Path n2 = dir.resolve("n2.json");
        assertThat(bg(scripted(200, 20, 1, 3, "--read-pct", "100", "--out", n.toString())))
                .as(err.toString())
                .isZero();
        assertThat(bg(scripted(400, 40, 2, 3, "--read-pct", "100", "--previous", n.toString(), "--out", n2.toString())))
                .as(err.toString())
                .isZero();
        JsonNode a = new ObjectMapper().readTree(n.toFile());
        JsonNode b = new ObjectMapper().readTree(n2.toFile());
        assertThat(b.path("status").asText()).isEqualTo("baseline-only");
        double avgN = average(a);
        double avg2N = average(b);
        assertThat(b.path("scalability").path("score").asDouble()).isCloseTo((avg2N - avgN) / avgN, within(1e-9));
        // Each average is of what BG measured, which on a loaded machine is more than the script's time by an amount
        // not
        // known beforehand; the script's floor holds on any machine: 20 actions on 1 thread, and 40 on 2 (one of them
        // runs at least 20), take at least 20 × 5 ms (reads only: a no-op write never reaches the store).
        assertThat(b.path("scalability").path("averageN").asDouble()).isEqualTo(avgN);
        assertThat(b.path("scalability").path("average2N").asDouble()).isEqualTo(avg2N);
        assertThat(avgN).isGreaterThanOrEqualTo(20 * 0.005);
        assertThat(avg2N).isGreaterThanOrEqualTo(20 * 0.005);
        assertThat(b.path("scalability").has("warning")).isFalse();
        assertThat(out.toString()).contains("Scalability score:");
    }

    private static double average(JsonNode r) {
        double sum = 0;
        int n = 0;
        for (JsonNode p : r.path("points")) {
            if (p.path("phase").asText().equals("baseline")) {
                sum += p.path("mean").asDouble();
                n++;
            }
        }
        return sum / n;
    }

    @Test
    void badInputIsOneLineNamingTheOption() {
        String[][] cases = {
            {"--nodes", "0"}, {"--read-pct", "120"}, {"--interpolation", "cubic"}, {"--settled", "true"},
            {"--request-set", "0"}, {"--baseline", "2"}, {"--margin", "0"}, {"--previous", "missing.json"},
        };
        String[] names = {
            "--nodes",
            "--read-pct",
            "--interpolation",
            "--settled",
            "--request-set",
            "--baseline",
            "--margin",
            "--previous"
        };
        for (int i = 0; i < cases.length; i++) {
            StringWriter e = new StringWriter();
            List<String> a = new ArrayList<>(List.of("elasticity", "--store", "memory"));
            a.addAll(List.of(cases[i]));
            if (!cases[i][0].equals("--nodes")) {
                a.addAll(List.of("--nodes", "1"));
            }
            int code = Bg.run(
                    new PrintWriter(new StringWriter(), true), new PrintWriter(e, true), a.toArray(String[]::new));
            assertThat(code).as(String.join(" ", cases[i])).isEqualTo(2);
            assertThat(e.toString().strip())
                    .as(String.join(" ", cases[i]))
                    .startsWith("bg: error: " + names[i])
                    .doesNotContain("Exception")
                    .hasLineCount(1);
        }
    }
}
