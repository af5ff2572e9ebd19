package org.bgbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bg study run FILE --out OUT} as a child process of a test, its output in a log, so a test can send it a real
 * SIGINT (the child takes SIGINT's default action even when the test runs where it is ignored).
 */
final class StudyProcess {
    private StudyProcess() {}

    /** Starts the study of {@code file} into {@code out}, BG's state under {@code state}, its output to {@code log}. */
    static Process start(Path file, Path out, Path state, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (SignalStopTest.ignoresSigint()) {
            cmd.addAll(List.of("env", "--default-signal=INT"));
        }
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Dbg.state.dir=" + state,
                "-cp",
                System.getProperty("java.class.path"),
                "org.bgbench.cli.Bg",
                "study",
                "run",
                file.toString(),
                "--out",
                out.toString()));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** Sends {@code p} a SIGINT; whether {@code kill} could. */
    static boolean interrupt(Process p) throws IOException, InterruptedException {
        return new ProcessBuilder("kill", "-INT", Long.toString(p.pid()))
                        .start()
                        .waitFor()
                == 0;
    }

    /** The points {@code study}/study.json holds as done, by key, with their {@code measure}; empty before the file. */
    static Map<String, Double> done(Path study, String measure) throws IOException {
        Map<String, Double> out = new LinkedHashMap<>();
        Path json = study.resolve("study.json");
        if (!Files.exists(json)) {
            return out;
        }
        for (JsonNode p : new ObjectMapper().readTree(json.toFile()).path("points")) {
            if (p.path("status").asText().equals("done")) {
                out.put(p.path("key").asText(), p.at("/measures/" + measure).asDouble());
            }
        }
        return out;
    }
}
