package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The commands that run no experiment (stores, dzipf, compare) and every command's help, in process. */
class BgToolCommandsTest extends BgCommandFixture {
    @Test
    void storesListsEveryBindingWithItsSettings() {
        assertThat(bg("stores")).isZero();
        assertThat(out.toString()).contains("memory", "sqlite", "postgres", "sqlite.file", "postgres.url");
    }

    @Test
    void dzipfPrintsChiSquareFromProbabilitiesAndASample() {
        assertThat(bg("dzipf", "-M", "2000", "--workers", "1-4", "--requests", "200000"))
                .as(err.toString())
                .isZero();
        List<String> rows =
                out.toString().lines().filter(l -> l.matches("\\s+\\d+ .*")).toList();
        assertThat(rows).hasSize(4);
        for (String row : rows) {
            String[] f = row.trim().split("\\s+");
            double analytic = Double.parseDouble(f[1]);
            double sampled = Double.parseDouble(f[2]);
            double floor = Double.parseDouble(f[3]);
            assertThat(analytic).as(row).isLessThan(1e-6);
            assertThat(sampled).as(row).isBetween(floor * 0.7, floor * 1.3);
        }
        assertThat(bg("dzipf", "-M", "2000", "--workers", "3", "--requests", "0"))
                .isZero();
        assertThat(out.toString()).contains("N=3").contains("χ² vs centralised Zipfian");
    }

    @Test
    void dzipfWithOneNOrWithRatesPrintsItsReportOnABufferedConsole() {
        // picocli's console writers are buffered: the single-N and --rates reports, printed without a newline-flush,
        // were lost when bg exited ('bg dzipf -N 13' printed nothing, exit 0).
        StringWriter console = new StringWriter();
        PrintWriter buffered = new PrintWriter(new BufferedWriter(console), true);
        assertThat(Bg.run(buffered, new PrintWriter(err, true), "dzipf", "-M", "2000", "-N", "13", "--requests", "0"))
                .as(err.toString())
                .isZero();
        assertThat(console.toString()).contains("N=13").contains("χ² vs centralised Zipfian");
        console.getBuffer().setLength(0);
        assertThat(Bg.run(
                        buffered,
                        new PrintWriter(err, true),
                        "dzipf",
                        "-M",
                        "2000",
                        "--rates",
                        "1,2,5",
                        "--requests",
                        "0"))
                .as(err.toString())
                .isZero();
        assertThat(console.toString()).contains("N=3").contains("χ² vs centralised Zipfian");
    }

    @Test
    void dzipfHelpSaysThetaOneIsUniform() {
        assertThat(bg("dzipf", "--help")).isZero();
        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains("from 0 (most skewed) to 1 (uniform)")
                .doesNotContain("0 is uniform");
    }

    @ParameterizedTest
    @ValueSource(strings = {"nosuch", "lod"})
    void anUnknownCommandWithHelpIsRefusedAsWithout(String name) {
        assertThat(bg(name)).isEqualTo(Bg.BAD_INPUT);
        String plainOut = out.toString();
        String plainErr = err.toString();
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        assertThat(bg(name, "--help")).isEqualTo(Bg.BAD_INPUT);
        assertThat(out.toString()).isEqualTo(plainOut).isEmpty();
        assertThat(err.toString()).isEqualTo(plainErr).contains("Unmatched argument at index 0: '" + name + "'");
        if (name.equals("lod")) {
            assertThat(err.toString()).contains("Did you mean: bg load?").doesNotContain("Usage:");
        }
        // Help for commands that exist is unchanged.
        out.getBuffer().setLength(0);
        assertThat(bg("load", "--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: bg load");
        assertThat(bg("help", "run")).isZero();
        assertThat(bg("--help")).isZero();
    }

    @Test
    void everyCommandsHelpFormatsWithoutPicocliWarnings() {
        // An unescaped % in a description makes picocli print "[picocli WARN] Could not format ..." to System.err.
        PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            for (String command :
                    new picocli.CommandLine(new Bg()).getSubcommands().keySet()) {
                assertThat(bg(command, "--help")).as(command).isZero();
            }
        } finally {
            System.setErr(saved);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
    }

    @Test
    void compareSkipsBgsSideFilesAndNamesForeignJson() throws Exception {
        Path runs = dir.resolve("runs");
        Files.createDirectories(runs.resolve("rating"));
        assertThat(bg(
                        "run",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=cli-compare",
                        "-p",
                        "usercount=200",
                        "-p",
                        "friendcountperuser=4",
                        "--operations",
                        "500",
                        "--quiet",
                        "--out",
                        runs.resolve("r.json").toString()))
                .as(err.toString())
                .isZero();
        // A rating writes rating.json beside its experiments' results, a run its graph.json and logs beside it:
        // BG's own side files, passed over without a word. A foreign JSON file is still named.
        Files.writeString(runs.resolve("rating/rating.json"), "{\"soar\": 1000.0, \"socialites\": 16}");
        Files.writeString(runs.resolve("notes.json"), "{\"mine\": true}");
        assertThat(runs.resolve("r/graph.json")).exists();
        err.getBuffer().setLength(0);
        assertThat(bg("compare", runs.toString())).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("r.json")
                .contains("(not a BG result: " + runs.resolve("notes.json"))
                .doesNotContain("graph.json")
                .doesNotContain("rating.json");
        assertThat(err.toString()).isEmpty();
    }
}
