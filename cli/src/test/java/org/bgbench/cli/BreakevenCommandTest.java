package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bg breakeven} on result files written as BG writes them, with service times chosen to give known figures. */
class BreakevenCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int bg(String... args) {
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    /**
     * A result whose reads (VP, LF) and writes (IF, AFR) have the given counts and means. Reads: VP 600 at vp ms, LF
     * 300 at lf ms; writes: IF 60 at w ms, AFR 40 at w ms, so u = 0.1.
     */
    private Path result(String name, int threads, double vp, double lf, double w, String design) throws IOException {
        String json = String.format(Locale.ROOT, """
                {"format":"bg-run-result/1","partial":false,"throughput":1000,"threads":%d,"duration_s":1,
                 "total":{"count":1000,"errors":0},
                 "actions":{"VP":{"count":600,"mean_ms":%s},"LF":{"count":300,"mean_ms":%s},
                            "IF":{"count":60,"mean_ms":%s},"AFR":{"count":40,"mean_ms":%s},
                            "TF":{"count":0,"mean_ms":null}},
                 "workload":{"mix_name":"high"},
                 "store":{"name":"postgres","settings":{"counts":"%s","postgres.url":"jdbc:postgresql://x/bg"}}}
                """, threads, vp, lf, w, w, design);
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.writeString(f, json);
        return f;
    }

    @Test
    void derivesTheInputsAndTheVerdict() throws IOException {
        // BASIC: Q̄ = (600·2 + 300·2)/900 = 2 ms, Ū = 0.5 ms, u = 0.1. NEW: Q̄' = 2/3 ms → X = 3, Ū' = 5 ms → Y = 10.
        // Equation 3: (2/3)·9·4 + 1 = 25, so Y = 10 is inside.
        Path b = result("basic.json", 1, 2, 2, 0.5, "query");
        Path n = result("new.json", 1, 0.5, 1.0, 5, "attributes");
        Path j = dir.resolve("out/be.json");
        assertThat(bg("breakeven", b.toString(), n.toString(), "--json", j.toString()))
                .isZero();
        String text = out.toString();
        assertThat(text)
                .contains(
                        "Q̄ = 2.0000 ms",
                        "Ū = 0.5000 ms",
                        "u = 0.100000",
                        "X = Q̄ / Q̄(NEW) = 3.0000",
                        "tolerable write slow-down Y = 25.0000",
                        "measured write slow-down  Ū(NEW) / Ū = 10.0000",
                        "inside the tolerable",
                        "counts=attributes");
        assertThat(text).doesNotContain("jdbc:postgresql");
        JsonNode m = new ObjectMapper().readTree(j.toFile());
        assertThat(m.get("tolerable_slowdown_y").asDouble()).isEqualTo(25.0, within(1e-9));
        assertThat(m.get("inside").asBoolean()).isTrue();
        // S = 0.1·0.5 + 0.9·2 = 1.85; S' = 0.1·5 + 0.9·2/3 = 1.1
        assertThat(m.get("basic_service_ms").asDouble()).isEqualTo(1.85, within(1e-9));
        assertThat(m.get("new_service_ms").asDouble()).isEqualTo(1.1, within(1e-9));
    }

    @Test
    void aSlowdownBeyondTheBreakEvenPointIsSaid() throws IOException {
        Path b = result("basic.json", 1, 2, 2, 0.5, "query");
        Path n = result("new.json", 1, 0.5, 1.0, 20, "attributes"); // Y = 40 > 25
        assertThat(bg("breakeven", b.toString(), n.toString())).isZero();
        assertThat(out.toString()).contains("beyond the tolerable 25.0000");
        // At a tenth of the write fraction the same change is inside again: (2/3)·99·4 + 1 = 265.
        out.getBuffer().setLength(0);
        assertThat(bg("breakeven", b.toString(), n.toString(), "--write-fraction", "0.01"))
                .isZero();
        assertThat(out.toString())
                .contains("tolerable write slow-down Y = 265.0000", "inside the tolerable", "(--write-fraction)");
    }

    /** A folder (a rating's) stands for its result with the fewest threads, or the one --threads names. */
    @Test
    void foldersUseTheLightestLoadedResult() throws IOException {
        result("b/T8.json", 8, 20, 20, 5, "query");
        result("b/T1.json", 1, 2, 2, 0.5, "query");
        Files.writeString(dir.resolve("b/rating.json"), "{\"format\":\"bg-rating/1\"}");
        result("n/T1.json", 1, 0.5, 1.0, 5, "attributes");
        result("n/T8.json", 8, 5, 10, 50, "attributes");
        assertThat(bg("breakeven", dir.resolve("b").toString(), dir.resolve("n").toString()))
                .isZero();
        assertThat(out.toString()).contains("b/T1.json", "n/T1.json", "Y = 25.0000");
        assertThat(err.toString()).doesNotContain("threads");
        out.getBuffer().setLength(0);
        assertThat(bg("breakeven", dir.resolve("b").toString(), dir.resolve("n").toString(), "--threads", "8"))
                .isZero();
        assertThat(out.toString()).contains("b/T8.json", "Q̄ = 20.0000 ms");
        assertThat(err.toString()).contains("8 threads", "queueing");
    }

    /**
     * Reads 30 times slower and writes a tenth of the read time at u = 0.1: equation 3 gives Y = −29·9·4 + 1 = −1043,
     * a slow-down no design can have, so the command refuses with the reason in one line instead of printing it.
     */
    @Test
    void noPositiveBreakEvenPointIsRefusedWithTheReason() throws IOException {
        Path b = result("basic.json", 1, 2, 2, 0.5, "query");
        Path n = result("new.json", 1, 60, 60, 0.5, "attributes");
        assertThat(bg("breakeven", b.toString(), n.toString())).isEqualTo(Bg.BAD_INPUT);
        assertThat(out.toString()).doesNotContain("tolerable write slow-down Y = -");
        assertThat(err.toString().strip().lines().count()).isEqualTo(1);
        assertThat(err.toString())
                .contains("NEW:", "30.0 times slower", "no write slow-down Y > 0", "Y = -1043.0")
                .doesNotContain("Exception");
        // Reads 1.2 times slower: at u = 0.5, (X − 1)/X = −0.2 and Y = −0.2·1·4 + 1 = 0.2, writes 5 times faster.
        err.getBuffer().setLength(0);
        Path slower = result("slower.json", 1, 2.4, 2.4, 0.1, "attributes");
        assertThat(bg("breakeven", b.toString(), slower.toString(), "--write-fraction", "0.5"))
                .isZero();
        assertThat(out.toString()).contains("Y = 0.2000", "writes must be at least 5.0000 times faster");
    }

    /** An open-model result's latencies are response times under another load: not set against a closed one's. */
    @Test
    void openAndClosedModelResultsAreNotCompared() throws IOException {
        Path b = result("basic.json", 1, 2, 2, 0.5, "query");
        Path n = open(result("new.json", 1, 0.5, 1.0, 5, "attributes"), 0.5, 1.0, 5);
        assertThat(bg("breakeven", b.toString(), n.toString())).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString().strip().lines().count()).isEqualTo(1);
        assertThat(err.toString()).contains("NEW:", "open model", "closed one", "same model");
        err.getBuffer().setLength(0);
        assertThat(bg("breakeven", n.toString(), b.toString())).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("BASIC:", "open model");
    }

    /** Two open-model results compare their service times (send to reply), not their response times. */
    @Test
    void openModelResultsUseTheirServiceTimes() throws IOException {
        // Response times include queueing (ten times the service times here); service times give X = 3, Y = 25.
        Path b = open(result("basic.json", 4, 20, 20, 5, "query"), 2, 2, 0.5);
        Path n = open(result("new.json", 4, 5, 10, 50, "attributes"), 0.5, 1.0, 5);
        assertThat(bg("breakeven", b.toString(), n.toString())).isZero();
        assertThat(out.toString())
                .contains(
                        "Q̄ = 2.0000 ms", "tolerable write slow-down Y = 25.0000", "open model: Q̄ and Ū are service");
    }

    /** Makes {@code f} an open-model result whose reads and writes have the given mean service times. */
    private static Path open(Path f, double vp, double lf, double w) throws IOException {
        String service = String.format(
                Locale.ROOT,
                "\"VP\":{\"count\":600,\"mean_ms\":%s},\"LF\":{\"count\":300,\"mean_ms\":%s},"
                        + "\"IF\":{\"count\":60,\"mean_ms\":%s},\"AFR\":{\"count\":40,\"mean_ms\":%s}",
                vp,
                lf,
                w,
                w);
        String open = ",\"open\":{\"schedule\":\"1000\",\"process\":\"constant\",\"in_flight_limit\":4,"
                + "\"valid\":true,\"service\":{" + service + "}}}";
        String json = Files.readString(f).strip();
        Files.writeString(f, json.substring(0, json.length() - 1) + open);
        return f;
    }

    @Test
    void badInputIsOneLine() throws IOException {
        Path b = result("basic.json", 1, 2, 2, 0.5, "query");
        assertThat(bg("breakeven", b.toString(), dir.resolve("missing.json").toString()))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("NEW: no such file or folder").doesNotContain("Exception");
        err.getBuffer().setLength(0);
        Files.writeString(dir.resolve("broken.json"), "{\"format\":");
        assertThat(bg("breakeven", b.toString(), dir.resolve("broken.json").toString()))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString().strip().lines().count()).isEqualTo(1);
        err.getBuffer().setLength(0);
        assertThat(bg("breakeven", b.toString(), b.toString(), "--write-fraction", "0"))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--write-fraction: expected a number in (0, 1]");
        err.getBuffer().setLength(0);
        Path readOnly = result("ro.json", 1, 2, 2, 0.5, "query");
        Files.writeString(
                readOnly,
                Files.readString(readOnly)
                        .replace("\"count\":60,", "\"count\":0,")
                        .replace("\"count\":40,", "\"count\":0,"));
        assertThat(bg("breakeven", readOnly.toString(), b.toString())).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("no completed write action");
    }
}
