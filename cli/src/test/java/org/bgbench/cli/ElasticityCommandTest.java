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
import org.bgbench.scaling.elasticity.ElasticityScore;
import org.bgbench.scaling.elasticity.SetPoint;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bg elasticity end to end on the scripted store: request sets whose times the store's script fixes (sets 12 to 17,
 * right after the add, four times slower), so the points, the moments and the score are known before the run.
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
    void aScriptedSlowdownAfterTheAddIsTimedAndScoredAsTheScriptSays() throws Exception {
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
        // The add's time is on the test's clock (after the warm-up sets), where the add happened.
        assertThat(r.path("adds").get(0).path("t").asDouble())
                .isCloseTo(r.path("addAt").asDouble(), within(0.5));
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
        // The script: points 0-5 at 40 actions × 5 ms on one thread (plus BG's own time before the first and after
        // the last action of a set), 6-7 with 15 ms more per action, then back. Reads only: a write that finds
        // nothing to do (an accept without a pending invitation) is a no-op that never reaches the store.
        double unit = points.subList(0, 6).stream()
                .mapToDouble(SetPoint::mean)
                .average()
                .orElseThrow();
        assertThat(unit).as(out.toString()).isBetween(0.2, 0.3);
        double slow = unit + 40 * 0.015;
        for (int k = 6; k <= 7; k++) {
            assertThat(points.get(k).mean()).as("point " + k + "\n" + out).isCloseTo(slow, within(0.1 * slow));
            assertThat(points.get(k).phase()).isEqualTo(SetPoint.Phase.TRANSITION);
        }
        assertThat(points.get(8).mean() / unit).isCloseTo(1.0, within(0.25));
        // Stable at the earliest after five small deltas from point 9 on (point 8's delta is the big one back). The
        // margin (30 × the baseline's median delta) keeps a loaded machine's late wake-ups from delaying it past
        // --max-points: a quiet baseline's median delta was 0.4-2 ms here, so 12 × it (5 ms at worst) was once missed
        // five points running in CI; 30 × a median up to 20 ms still stays under the 0.6 s step back from the slow
        // points. The rule itself is ElasticityRunTest's and DeltaStabilityTest's.
        int stable = (int) points.stream()
                        .filter(p -> p.phase() == SetPoint.Phase.TRANSITION)
                        .count()
                + 5;
        assertThat(stable).isGreaterThanOrEqualTo(13);
        assertThat(r.path("stableAt").asDouble()).isEqualTo(points.get(stable).end());
        assertThat(points.subList(stable + 1, points.size()))
                .hasSize(3)
                .allMatch(p -> p.phase() == SetPoint.Phase.STABLE);
        // The score of the scripted curve (unit, slow for points 6-7, unit again) on the measured times, 2 ms a
        // request before and after at the unit's rate: what BG measured must agree within the noise of sleeping
        // threads.
        double rt = 0.005; // each action ends 5 ms after the one before
        List<SetPoint> ideal = new ArrayList<>();
        for (SetPoint p : points) {
            double m = p.index() >= 6 && p.index() <= 7 ? slow : unit;
            ideal.add(new SetPoint(p.index(), p.start(), p.end(), m, 0, p.n(), rt, p.phase()));
        }
        double addAt = r.path("addAt").asDouble();
        ElasticityScore expected = ElasticityScore.of(
                ideal.subList(0, 6),
                ideal,
                ideal.subList(stable + 1, ideal.size()),
                addAt,
                r.path("stableAt").asDouble(),
                Curves.Interpolation.LINEAR);
        JsonNode score = r.path("score");
        assertThat(score.path("a").asDouble()).isCloseTo(expected.a(), within(0.25 * expected.a()));
        assertThat(score.path("rt1").asDouble()).isCloseTo(0.005, within(0.001));
        assertThat(score.path("elasticity").asDouble())
                .isCloseTo(expected.elasticity(), within(0.35 * expected.elasticity()));
        assertThat(Files.readString(dir.resolve("e.svg"))).startsWith("<svg").contains(">add<", ">stable<");
        assertThat(out.toString()).contains("Stabilisation time:", "Elasticity score:");
        assertThat(err.toString()).doesNotContain("baseline was not stable");
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
        assertThat(bg(scripted(200, 20, 1, 3, "--out", n.toString())))
                .as(err.toString())
                .isZero();
        assertThat(bg(scripted(400, 40, 2, 3, "--previous", n.toString(), "--out", n2.toString())))
                .as(err.toString())
                .isZero();
        JsonNode a = new ObjectMapper().readTree(n.toFile());
        JsonNode b = new ObjectMapper().readTree(n2.toFile());
        assertThat(b.path("status").asText()).isEqualTo("baseline-only");
        double avgN = average(a);
        double avg2N = average(b);
        assertThat(b.path("scalability").path("score").asDouble()).isCloseTo((avg2N - avgN) / avgN, within(1e-9));
        // 20 actions on 2 threads and 40 on 4 take the same 20 ms: the script scales perfectly.
        assertThat(b.path("scalability").path("score").asDouble()).isCloseTo(0, within(0.3));
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
