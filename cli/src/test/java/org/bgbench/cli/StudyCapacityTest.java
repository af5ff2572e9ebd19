package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A scale the machine cannot hold is refused in one line before any store is opened or any file written. */
class StudyCapacityTest {
    @TempDir
    Path dir;

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
    }

    @Test
    void aGraphSizeFollowsItsRowsAndImages() {
        long plain = StudyCapacity.graphBytes(
                Map.of("usercount", "1000", "friendcountperuser", "10", "resourcecountperuser", "10"));
        long images = StudyCapacity.graphBytes(Map.of(
                "usercount", "1000",
                "friendcountperuser", "10",
                "resourcecountperuser", "10",
                "insertimage", "true",
                "imagesize", "12"));
        long twice = StudyCapacity.graphBytes(
                Map.of("usercount", "2000", "friendcountperuser", "10", "resourcecountperuser", "10"));
        assertThat(twice).isEqualTo(2 * plain);
        assertThat(images - plain).isGreaterThanOrEqualTo(1000L * 12 * 1024);
    }

    @Test
    void aScaleLargerThanTheDiskIsRefusedNamingItsNeed() throws Exception {
        String[] r = run(study("sqlite", "{sqlite.file: \"${data}/bg.sqlite\"}", 500_000_000, 1000));
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1].strip().lines()).hasSize(1);
        assertThat(r[1])
                .contains("--scale", "tiny needs at least", "of disk for its 1 load of the graph", "free under");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aGraphLargerThanTheHeapOfTheMemoryStoreIsRefused() throws Exception {
        long members = Runtime.getRuntime().maxMemory() / StudyCapacity.BYTES_PER_ROW / 10 + 1;
        String[] r = run(study("memory", "{memory.name: \"${group}\"}", (int) Math.min(members, 2_000_000_000L), 10));
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1].strip().lines()).hasSize(1);
        assertThat(r[1]).contains("--scale", "in BG's heap (the memory store)", "BG_JAVA_OPTS=-Xmx");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    private String[] run(Path file) {
        StringWriter so = new StringWriter();
        StringWriter se = new StringWriter();
        int rc = Bg.run(
                new PrintWriter(so, true),
                new PrintWriter(se, true),
                "study",
                "run",
                file.toString(),
                "--out",
                dir.resolve("out").toString());
        return new String[] {Integer.toString(rc), se.toString()};
    }

    private Path study(String store, String settings, int members, int resources) throws Exception {
        Path file = dir.resolve("huge.yaml");
        Files.writeString(file, """
                name: huge
                title: A graph too large for this machine
                source: {paper: the tests, where: figure 0, finding: none}
                varies: [T]
                stores:
                  - store: %s
                    starts: true
                    settings: %s
                mixes: [vp]
                scales:
                  tiny:
                    graph: {usercount: %d, friendcountperuser: 10, resourcecountperuser: %d}
                    threads: [1]
                    duration: 1s
                  small:
                    graph: {usercount: 1000}
                    threads: [1]
                    duration: 1s
                  paper:
                    graph: {usercount: 1000}
                    threads: [1]
                    duration: 1s
                measures: [throughput]
                figures:
                  - {id: tp, title: T, x: {key: threads}, y: {key: throughput}, series_by: [store]}
                """.formatted(store, settings, members, resources));
        return file;
    }
}
