package org.bgbench.deck.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.model.Kind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command lines the deck builds from a form, the field a refusal names, and real processes standing in for bg.
 */
@Tag("server")
class JobsTest {
    @TempDir
    Path dir;

    private static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void aRunWithSettingsGraphKeysANamedMixAndOptions() {
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("--threads", 4);
        options.put("--duration", "10s");
        options.put("--warmup", ""); // blank: the default, left out
        options.put("--validate", true); // a flag
        options.put("--no-progress", false); // an unset flag: left out
        options.put("--beta", null);
        options.put("--store-host", "db1:9100, db2 ,db3:9200");
        JobRequest r = new JobRequest(
                "run",
                "memory",
                map("memory.name", " shared ", "memory.other", "  "),
                map("usercount", "200", "friendcountperuser", "4", "resourcecountperuser", ""),
                "high",
                null,
                options);
        Path out = Path.of("runs", "x.json");

        assertThat(Jobs.arguments(r, out))
                .containsExactly(
                        "run",
                        "--store=memory",
                        "-p",
                        "memory.name=shared",
                        "-p",
                        "usercount=200",
                        "-p",
                        "friendcountperuser=4",
                        "--workload=high",
                        "--threads=4",
                        "--duration=10s",
                        "--validate",
                        "--store-host=db1:9100",
                        "--store-host=db2",
                        "--store-host=db3:9200",
                        "--out=" + out);
    }

    @Test
    void aCustomMixBecomesUscFrequencyKeysInPercent() {
        Map<String, Double> mix = new LinkedHashMap<>();
        mix.put("VP", 90.0);
        mix.put("LF", 10.0);
        mix.put("VFR", 0.0); // zero: left out
        mix.put("TF", null);
        JobRequest r = new JobRequest("rate", "memory", null, null, "custom", mix, null);

        List<String> a = Jobs.arguments(r, Path.of("runs", "rate-x"));

        String vp = Kind.byCode("VP").orElseThrow().uscKey();
        String lf = Kind.byCode("LF").orElseThrow().uscKey();
        assertThat(a)
                .containsExactly(
                        "rate",
                        "--store=memory",
                        "-p",
                        vp + "=90.0%",
                        "-p",
                        lf + "=10.0%",
                        "--out=" + Path.of("runs", "rate-x"));
        assertThat(a).noneMatch(s -> s.startsWith("--workload"));
        assertThatThrownBy(() -> Jobs.arguments(
                        new JobRequest("run", "memory", null, null, "custom", Map.of("NOPE", 5.0), null), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NOPE");
    }

    @Test
    void aLoadHasNoMixAndNoResultPath() {
        JobRequest r = new JobRequest(
                "load", "memory", null, map("usercount", "100"), "high", Map.of("VP", 100.0), Map.of("--threads", "2"));
        assertThat(Jobs.arguments(r, null))
                .containsExactly("load", "--store=memory", "-p", "usercount=100", "--threads=2");
    }

    @Test
    void outIsTheDecksAndOptionNamesMustBeLowerCaseLongOptions() {
        JobRequest r = new JobRequest("run", "memory", null, null, null, null, Map.of("--out", "/etc/passwd"));
        assertThat(Jobs.arguments(r, Path.of("runs", "mine.json")))
                .containsExactly("run", "--store=memory", "--out=" + Path.of("runs", "mine.json"));
        assertThat(Jobs.arguments(r, null)).doesNotContain("--out=/etc/passwd");

        for (String bad : List.of("-t", "--Threads", "threads", "--threads=4", "--threads; rm -rf /", "--")) {
            JobRequest b = new JobRequest("run", "memory", null, null, null, null, Map.of(bad, "1"));
            assertThatThrownBy(() -> Jobs.arguments(b, null))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not an option name");
        }
        assertThatThrownBy(() -> Jobs.arguments(new JobRequest("shell", null, null, null, null, null, null), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("command:");
        assertThatThrownBy(() -> Jobs.arguments(new JobRequest(null, null, null, null, null, null, null), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("command:");
    }

    @Test
    void aRefusalNamesTheFieldItIsAbout() {
        assertThat(Jobs.fieldError("bg: error: --threads: T must be at least 1, got 0"))
                .isEqualTo(new Job.FieldError("--threads", "--threads: T must be at least 1, got 0"));
        assertThat(Jobs.fieldError("bg: error: Invalid value for option '--threads': 'x' is not an int (see 'bg run "
                                + "--help')")
                        .field())
                .isEqualTo("--threads");
        assertThat(Jobs.fieldError("bg: error: members: must be at least 1, got -5"))
                .isEqualTo(new Job.FieldError("members", "members: must be at least 1, got -5"));
        assertThat(Jobs.fieldError("bg: error: sqlite.path: unknown parameter; known: sqlite.file")
                        .field())
                .isEqualTo("sqlite.path");
        assertThat(Jobs.fieldError("bg run: error: --duration: expected a duration, got 'soon'")
                        .field())
                .isEqualTo("--duration");
        Job.FieldError none = Jobs.fieldError("bg: error: the store refused the connection (is it running?)");
        assertThat(none.field()).isNull();
        assertThat(none.message()).isEqualTo("the store refused the connection (is it running?)");
    }

    @Test
    void aStartedCommandsRefusalIsMappedToItsField() throws Exception {
        // bash stands in for bg: what follows "bash -c SCRIPT" is $0, $1... (here: $0 is the subcommand).
        Jobs jobs = new Jobs(
                List.of(
                        "bash",
                        "-c",
                        "echo starting; echo 'bg: error: --threads: T must be at least 1, "
                                + "got 0' >&2; echo \"args: $*\"; exit 2"),
                dir,
                dir.resolve("runs"));
        Job refused = jobs.start(new JobRequest("run", "memory", null, null, "high", null, Map.of("--threads", 0)));
        Jobs fine = new Jobs(
                List.of("bash", "-c", "for i in 1 2 3; do echo line $i; done; exit 0"), dir, dir.resolve("runs"));
        Job ok = fine.start(new JobRequest("load", "memory", null, Map.of("usercount", "10"), null, null, null));

        await(refused);
        await(ok);

        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.error())
                .isEqualTo(new Job.FieldError("--threads", "--threads: T must be at least 1, got 0"));
        assertThat(refused.lines()).contains("starting", "bg: error: --threads: T must be at least 1, got 0");
        assertThat(refused.args()).contains("--threads=0").last().asString().startsWith("--out=");
        // the arguments reach the command one by one, after the subcommand ($0 here)
        assertThat(refused.lines())
                .contains("args: "
                        + String.join(
                                " ", refused.args().subList(1, refused.args().size())));
        assertThat(refused.result()).isNotNull();
        assertThat(refused.result().getParent()).isEqualTo(dir.resolve("runs"));
        assertThat(jobs.all()).containsExactly(refused);
        assertThat(jobs.get(refused.id())).isSameAs(refused);
        assertThat(Jobs.summary(refused)).containsEntry("running", false).containsEntry("exit_code", 2);

        assertThat(ok.exitCode()).isEqualTo(0);
        assertThat(ok.error()).isNull();
        assertThat(ok.lines()).containsExactly("line 1", "line 2", "line 3");
        assertThat(ok.result()).isNull();
    }

    @Test
    void anErrorLineWithAnotherExitCodeIsNotARefusal() throws Exception {
        Jobs jobs =
                new Jobs(List.of("bash", "-c", "echo 'bg: error: --threads: nope'; exit 1"), dir, dir.resolve("runs"));
        Job j = jobs.start(new JobRequest("run", null, null, null, null, null, null));
        await(j);
        assertThat(j.exitCode()).isEqualTo(1);
        assertThat(j.error()).isNull();
    }

    @Test
    void aFailedStartSaysWhyBesideTheJobAndListsNoResult() throws Exception {
        Jobs jobs = new Jobs(
                List.of("bash", "-c", "echo 'bg: loading'; echo 'bg: error: the store is not reachable'; exit 1"),
                dir,
                dir.resolve("runs"));
        Job j = jobs.start(new JobRequest("run", null, null, null, null, null, null));
        await(j);
        assertThat(j.result()).isNotNull();
        assertThat(Jobs.summary(j))
                .containsEntry("failure", "the store is not reachable")
                .containsEntry("result_written", false);
    }

    private static void await(Job j) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (j.exitCode() == null && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(j.exitCode()).as("job " + j.id() + " ended").isNotNull();
    }
}
