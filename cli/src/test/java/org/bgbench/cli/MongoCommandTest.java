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
import org.bgbench.store.mongodb.FerretServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mongodb store through {@code bg}: bad input is one line and a non-zero exit; a load and a run of the high mix
 * on FerretDB (over PostgreSQL) with BG's validation judging every read, in the pull and the sorted-push feed design.
 */
@Tag("server")
class MongoCommandTest {
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
        "commentcountperresource=1"
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
        assertThat(err.toString()).contains(message).doesNotContain("\tat ").doesNotContain("Exception");
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
                bg(
                        "load",
                        "--store",
                        "mongodb",
                        "-p",
                        "mongodb.uri=mongodb://127.0.0.1:" + port + "/",
                        "-p",
                        "mongodb.timeout=1s"),
                "cannot reach MongoDB at 127.0.0.1:" + port + " (mongodb.uri) within 1 s");
        assertOneLineFailure(
                bg("load", "--store", "mongodb", "-p", "mongodb.write-concern=lots"),
                "mongodb.write-concern: expected 0, 1, a number of members or majority, got 'lots'");
        assertOneLineFailure(
                bg("load", "--store", "mongodb", "-p", "mongodb.uri=localhost:27017"),
                "mongodb.uri: expected a connection string such as mongodb://host:27017/");
    }

    @Test
    @SuppressWarnings("unchecked")
    void loadAndRunOnFerretDbWithNoUnpredictableRead() throws IOException {
        String uri = FerretServer.shared(FerretServer.Backend.POSTGRESQL).uri();
        for (String feed : List.of("pull", "sorted-push")) {
            List<String> store = List.of(
                    "--store",
                    "mongodb",
                    "-p",
                    "mongodb.uri=" + uri,
                    "-p",
                    "mongodb.database=bg_cli_" + feed.replace('-', '_'),
                    "-p",
                    "mongodb.document-locks=true",
                    "-p",
                    "feed.design=" + feed,
                    "-p",
                    "pagecount=8",
                    "-p",
                    "pagesperuser=2");
            List<String> load = new ArrayList<>(List.of("load", "--replace"));
            load.addAll(store);
            load.addAll(List.of(GRAPH));
            assertThat(bg(load.toArray(String[]::new))).as(out + "\n" + err).isZero();
            Path result = dir.resolve(feed + ".json");
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
                    .as(feed + ": reads validated")
                    .isPositive();
            assertThat(((Number) u.get("unpredictable_reads")).longValue())
                    .as(feed + ": unpredictable reads\n" + out)
                    .isZero();
        }
    }
}
