package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bgbench.store.hbase.HBaseServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hbase store through {@code bg}: bad input is one line and a non-zero exit; a load and a run of the feed-high mix
 * on a real standalone HBase with BG's validation judging every read, in the Basic design with pull feeds and in the
 * Manual design with sorted-push content feeds (the one feed design the conformance suites do not run).
 */
@Tag("server")
class HBaseCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] GRAPH = {
        "-p",
        "usercount=400",
        "-p",
        "friendcountperuser=10",
        "-p",
        "resourcecountperuser=4",
        "-p",
        "confperc=0.7",
        "-p",
        "commentcountperresource=1",
        "-p",
        "pagecount=8",
        "-p",
        "pagesperuser=2"
    };

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int bg(String... args) {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private void assertOneLineFailure(int code, String message) {
        assertThat(code).as(out + "\n" + err).isNotZero();
        assertThat(err.toString())
                .as(err.toString())
                .contains(message)
                .doesNotContain("\tat ")
                .doesNotContain("Exception");
        assertThat(err.toString().lines().filter(l -> l.contains(message)).count())
                .isEqualTo(1);
    }

    @Test
    void badInputIsOneLine() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        assertOneLineFailure(
                bg("load", "--store", "hbase", "-p", "hbase.zookeeper.port=" + port),
                "cannot reach ZooKeeper at 127.0.0.1 port " + port + " (hbase.zookeeper.quorum, hbase.zookeeper.port)");
        assertOneLineFailure(
                bg("load", "--store", "hbase", "-p", "hbase.design=fancy"),
                "hbase.design: expected one of basic, manual, got 'fancy'");
        HBaseServer server = HBaseServer.single();
        // A check of a store holding no BG tables under that prefix.
        assertOneLineFailure(
                bg(
                        "verify",
                        "--store",
                        "hbase",
                        "-p",
                        "hbase.zookeeper.port=" + server.zkPort(),
                        "-p",
                        "hbase.table-prefix=bg_nothing_here_"),
                "the store holds no BG graph");
    }

    @Test
    @SuppressWarnings("unchecked")
    void loadAndRunWithNoUnpredictableRead() throws IOException {
        HBaseServer server = HBaseServer.single();
        for (List<String> design : List.of(
                List.of("hbase.design=basic", "feed.design=pull"),
                List.of("hbase.design=manual", "feed.design=sorted-push", "feed.push=content"))) {
            String name = design.get(0).substring(13) + "_"
                    + design.get(1).substring(12).replace('-', '_');
            List<String> store = new ArrayList<>(List.of(
                    "--store",
                    "hbase",
                    "-p",
                    "hbase.zookeeper.port=" + server.zkPort(),
                    "-p",
                    "hbase.table-prefix=bg_cli_" + name + "_",
                    "-p",
                    "hbase.server-dir=" + server.dir()));
            for (String d : design) {
                store.addAll(List.of("-p", d));
            }
            List<String> load = new ArrayList<>(List.of("load", "--replace"));
            load.addAll(store);
            load.addAll(List.of(GRAPH));
            assertThat(bg(load.toArray(String[]::new))).as(out + "\n" + err).isZero();
            Path result = dir.resolve(name + ".json");
            List<String> run = new ArrayList<>(List.of(
                    "run",
                    "--workload",
                    "feed-high",
                    "--threads",
                    "8",
                    "--duration",
                    "8s",
                    "--warmup",
                    "0s",
                    "--out",
                    result.toString()));
            run.addAll(store);
            run.addAll(List.of(GRAPH));
            assertThat(bg(run.toArray(String[]::new))).as(out + "\n" + err).isZero();
            Map<String, Object> r = JSON.readValue(Files.readString(result), Map.class);
            Map<String, Object> u = (Map<String, Object>) r.get("unpredictable");
            assertThat(((Number) u.get("reads_checked")).longValue())
                    .as(name + ": reads validated")
                    .isPositive();
            assertThat(((Number) u.get("unpredictable_reads")).longValue())
                    .as(name + ": unpredictable reads\n" + out)
                    .isZero();
            assertThat(err.toString())
                    .as("nothing the HBase client logs reaches BG's output")
                    .doesNotContain("org.apache");
        }
    }
}
