package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.bgbench.measurement.report.ResultJson;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The rate and quickstart commands end to end, in process, against a real SQLite file. */
@Tag("slow")
class BgRateCommandTest extends BgCommandFixture {
    @Test
    void rateSearchesAndWritesItsReport() throws Exception {
        Path rating = dir.resolve("rating");
        int code = bg(with(
                GRAPH,
                "rate",
                "--store",
                "memory",
                "-p",
                "memory.name=cli-rate",
                "--delta",
                "1s",
                "--warmup",
                "0s",
                "--sla",
                "95%:100ms:0.01%:1s",
                "--max-threads",
                "4",
                "--no-confirm",
                "--out",
                rating.toString()));
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("SoAR").contains("Socialites").contains("experiments");
        @SuppressWarnings("unchecked")
        Map<String, Object> json =
                new ObjectMapper().readValue(rating.resolve("rating.json").toFile(), Map.class);
        assertThat(json).containsKeys("soar", "socialites", "experiments", "rating_time");
        assertThat((List<?>) json.get("experiments")).isNotEmpty();
        assertThat(rating.resolve("rating.svg")).content().startsWith("<svg").contains("</svg>");
        assertThat(rating.resolve("rating.html")).content().contains("<svg");
        // Every experiment left its own result JSON.
        try (var files = Files.list(rating)) {
            assertThat(files.filter(f -> f.getFileName().toString().matches("\\d+-T\\d+\\.json"))
                            .count())
                    .isEqualTo(((List<?>) json.get("experiments")).size());
        }
    }

    @Test
    void aRatingAtMaxThreadsIsALowerBoundInTheTerminalAndTheJson() throws Exception {
        Path rating = dir.resolve("bound");
        int code = bg(with(
                GRAPH,
                "rate",
                "--store",
                "memory",
                "-p",
                "memory.name=cli-rate-bound",
                "--delta",
                "1s",
                "--warmup",
                "0s",
                "--sla",
                "95%:100ms:0.01%:1s",
                "--max-threads",
                "1",
                "--out",
                rating.toString()));
        assertThat(code).as(err.toString()).isZero();
        // T=1 meets this SLA on the memory store, and T=1 is the most the search may try: both are lower bounds.
        assertThat(out.toString()).containsPattern("(?m)^SoAR +≥ [0-9,]+ actions/s at T=1 \\(CONFIRMED; a lower bound");
        assertThat(out.toString()).containsPattern("(?m)^Socialites ≥ 1 \\(.*a lower bound: T=max-threads=1");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> json =
                new ObjectMapper().readValue(rating.resolve("rating.json").toFile(), Map.class);
        assertThat(json.get("soar")).containsEntry("lower_bound", true);
        assertThat(json.get("socialites")).containsEntry("lower_bound", true);
        assertThat((String) json.get("socialites").get("lower_bound_reason")).contains("max-threads=1");
    }

    @Test
    void rateOnAFullDiskPrintsItsExperimentsAndRatingThenNamesWhatItCannotWrite() throws Exception {
        Path mnt = dir.resolve("full-disk");
        SmallDisk.mount(mnt, "1m");
        try {
            SmallDisk.fill(mnt.resolve("filler"));
            Path rating = mnt.resolve("rating");
            int code = bg(with(
                    GRAPH,
                    "rate",
                    "--store",
                    "memory",
                    "-p",
                    "memory.name=cli-rate-full",
                    "-p",
                    "validation=false",
                    "--delta",
                    "1s",
                    "--warmup",
                    "0s",
                    "--sla",
                    "95%:100ms:0.01%:1s",
                    "--target",
                    "soar",
                    "--max-threads",
                    "1",
                    "--no-confirm",
                    "--out",
                    rating.toString()));
            assertThat(code).as(err.toString()).isEqualTo(Bg.FAILED);
            // the experiment's row and the rating are printed; then one line names the first file not written
            assertThat(out.toString())
                    .containsPattern("(?m)^ +1 +1 +[0-9,]+ ")
                    .contains("SoAR ")
                    .contains("experiments in");
            assertThat(err.toString())
                    .containsOnlyOnce("bg: error: cannot write ")
                    .contains("cannot write the result to " + rating.resolve("01-T1.json"))
                    .contains("No space left on device")
                    .contains("more files not written)")
                    .contains("; the rating above is what was measured")
                    .doesNotContain("Exception", "\tat ");
            try (var left = Files.list(rating)) {
                assertThat(left.map(f -> f.getFileName().toString()))
                        .as("no reserve or temporary file is left")
                        .noneMatch(n -> n.endsWith(".reserve") || n.endsWith(".tmp"));
            }
        } finally {
            SmallDisk.unmount(mnt);
        }
    }

    @Test
    void rateRatesTheMixOfAWorkloadFileGivenWithPUnderTheFilesName() throws Exception {
        Path file = dir.resolve("ReadMostly");
        Files.writeString(file, "ViewProfileAction=0.6\nListFriendsAction=0.4\n");
        Path rating = dir.resolve("rating-file");
        int code = bg(with(
                GRAPH,
                "rate",
                "--store",
                "memory",
                "-p",
                "memory.name=cli-rate-file",
                "-P",
                file.toString(),
                "--delta",
                "1s",
                "--warmup",
                "0s",
                "--sla",
                "95%:100ms:0.01%:1s",
                "--target",
                "soar",
                "--max-threads",
                "1",
                "--no-confirm",
                "--out",
                rating.toString()));
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).contains("bg: rating memory with the ReadMostly mix");
        try (var files = Files.list(rating)) {
            Path first = files.filter(f -> f.getFileName().toString().matches("\\d+-T\\d+\\.json"))
                    .findFirst()
                    .orElseThrow();
            assertThat(ResultJson.read(first).workload().get("mix_name")).isEqualTo("ReadMostly");
        }
    }

    @Test
    void quickstartLoadsRunsAndRates() throws Exception {
        Path qs = dir.resolve("qs");
        int code = bg(
                "quickstart",
                "-p",
                "sqlite.file=" + dir.resolve("qs.sqlite"),
                "-p",
                "usercount=300",
                "-p",
                "friendcountperuser=10",
                "-p",
                "resourcecountperuser=4",
                "--threads",
                "1,2",
                "--duration",
                "1s",
                "--rate-delta",
                "1s",
                "--sla",
                "95%:100ms:0.01%:1s",
                "--rate-max-threads",
                "4",
                "--out",
                qs.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("sanity check passed: 300 members")
                .contains("SoAR")
                .contains("Socialites");
        assertThat(qs.resolve("T1.json")).isRegularFile();
        assertThat(qs.resolve("T2.json")).isRegularFile();
        assertThat(qs.resolve("rating/rating.json"))
                .content()
                .contains("\"soar\"")
                .contains("\"socialites\"");
        // At the cap (T=4 here) the line says plainly that Socialites is a lower bound; below it, a plain number.
        String socialites = out.toString()
                .lines()
                .filter(l -> l.startsWith("Socialites"))
                .findFirst()
                .orElseThrow();
        assertThat(socialites)
                .matches("Socialites (≥ 4 \\(.*a lower bound: T=max-threads=4.*|[0-3] \\((?!.*lower bound).*)");
        assertThat(out.toString()).doesNotContain("the Socialites rating may be higher");
        // A second quickstart finds the graph loaded and runs on it.
        assertThat(bg(
                        "quickstart",
                        "-p",
                        "sqlite.file=" + dir.resolve("qs.sqlite"),
                        "-p",
                        "usercount=300",
                        "-p",
                        "friendcountperuser=10",
                        "-p",
                        "resourcecountperuser=4",
                        "--threads",
                        "1",
                        "--duration",
                        "1s",
                        "--no-rate",
                        "--out",
                        dir.resolve("qs2").toString()))
                .as(err.toString())
                .isZero();
        assertThat(err.toString()).contains("already holds the quickstart graph");
    }
}
