package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's result records the physical design it ran on (CIKM 2013 sections C–E): the store settings, defaults filled
 * in, are the result's {@code store.settings}.
 */
class PhysicalDesignResultTest {
    @TempDir
    Path dir;

    @Test
    void theResultNamesTheFriendshipTablesTheCountsAndTheImages() throws Exception {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        Path out = dir.resolve("r.json");
        StringWriter err = new StringWriter();
        int rc = Bg.run(
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true),
                "run",
                "--store",
                "sqlite",
                "-p",
                "sqlite.file=" + dir.resolve("bg.sqlite"),
                "-p",
                "friendship.tables=2",
                "-p",
                "friendship.rows=2",
                "-p",
                "counts=attributes",
                "-p",
                "images=fs",
                "-p",
                "usercount=100",
                "-p",
                "friendcountperuser=6",
                "-p",
                "resourcecountperuser=2",
                "-p",
                "insertimage=true",
                "-p",
                "imagesize=2",
                "--load",
                "--workload",
                "high",
                "--threads",
                "2",
                "--duration",
                "1s",
                "--quiet",
                "--out",
                out.toString());
        assertThat(rc).as(err.toString()).isZero();
        JsonNode settings =
                new ObjectMapper().readTree(out.toFile()).get("store").get("settings");
        assertThat(settings.get("friendship.tables").asText()).isEqualTo("2");
        assertThat(settings.get("friendship.rows").asText()).isEqualTo("2");
        assertThat(settings.get("counts").asText()).isEqualTo("attributes");
        assertThat(settings.get("images").asText()).isEqualTo("fs");
        assertThat(settings.get("feed.design").asText()).isEqualTo("pull");
        assertThat(Files.exists(dir.resolve("bg.sqlite.images").resolve("bg-images")))
                .isTrue();
    }
}
