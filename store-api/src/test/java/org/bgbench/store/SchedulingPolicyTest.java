package org.bgbench.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The policy BG reads and the one its store servers get, in real processes: a JVM started as {@code SCHED_BATCH} (as
 * the bg launcher starts BG) starts children through {@link SchedulingPolicy#forStoreServer} and resets a running one
 * with {@link SchedulingPolicy#resetStoreServer}; the kernel's /proc says what each ended up with.
 */
@Tag("server")
class SchedulingPolicyTest {
    @Test
    void thePolicyIsField41AfterACommandNameWithSpacesAndParentheses() {
        String fields =
                " S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 "
                        + "35 36 37 ";
        assertThat(SchedulingPolicy.fromStat("42 (bg (member) 1)" + fields + "0 0 0 0"))
                .isEqualTo("normal");
        assertThat(SchedulingPolicy.fromStat("42 (java)" + fields + "3 0 0 0")).isEqualTo("batch");
        assertThat(SchedulingPolicy.fromStat("42 (java)" + fields + "5 0")).isEqualTo("idle");
        assertThat(SchedulingPolicy.fromStat("42 (java) S 1 2")).isEqualTo("unknown");
    }

    @Test
    void thisJvmReadsItsOwnPolicy() throws Exception {
        // Surefire's JVM runs at whatever the build was started with; /proc says which, by the kernel's number.
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 1).trim().split("\\s+");
        String expected = switch (f[38]) {
            case "0" -> "normal";
            case "3" -> "batch";
            case "5" -> "idle";
            default -> f[38];
        };
        assertThat(SchedulingPolicy.current()).isEqualTo(expected);
    }

    @Test
    void aBatchBgStartsAndResetsItsStoreServersAtTheNormalPolicy() throws Exception {
        String out = child("--batch");
        // Field 41 of the children's stat: 3 is SCHED_BATCH, 0 SCHED_OTHER.
        assertThat(out)
                .contains(
                        "bg batch",
                        "plain child 3",
                        "store server 0",
                        "server before batch/batch, reset ok",
                        "reset server normal/normal",
                        "server command [chrt, --other, 0, true]");
    }

    /** BG's default policy: nothing to put back, so store servers are started and left as they are, without chrt. */
    @Test
    void aNormalBgLeavesItsStoreServersAlone() throws Exception {
        String out = child("--other");
        assertThat(out)
                .contains(
                        "bg normal",
                        "plain child 0",
                        "store server 0",
                        "server before normal/normal, reset ok",
                        "reset server normal/normal",
                        "server command [true]");
    }

    /** Runs {@link Child} in a JVM started under {@code chrt POLICY 0}; returns what it printed. */
    private static String child(String policy) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                "chrt",
                policy,
                "0",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Child.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    /** Runs under chrt: reports its own policy and its children's, and how a store server would be started. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            System.out.println("bg " + SchedulingPolicy.current());
            String policy = "cut -d' ' -f41 /proc/self/stat";
            System.out.println("plain child " + output(List.of("bash", "-c", policy)));
            System.out.println(
                    "store server " + output(SchedulingPolicy.forStoreServer(List.of("bash", "-c", policy))));
            System.out.println("server command " + SchedulingPolicy.forStoreServer(List.of("true")));
            // A server that has started a process of its own before the reset (PostgreSQL's background processes);
            // it prints its child's pid once it has started it, so nothing waits on a clock.
            Process server = new ProcessBuilder("bash", "-c", "sleep 30 & echo $!; wait").start();
            try {
                long child = Long.parseLong(
                        new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))
                                .readLine()
                                .strip());
                String before = SchedulingPolicy.of(server.pid()) + "/" + SchedulingPolicy.of(child);
                Optional<String> failed = SchedulingPolicy.resetStoreServer(server.pid());
                System.out.println("server before " + before + ", reset " + failed.orElse("ok"));
                System.out.println(
                        "reset server " + SchedulingPolicy.of(server.pid()) + "/" + SchedulingPolicy.of(child));
            } finally {
                server.descendants().forEach(ProcessHandle::destroyForcibly);
                server.destroyForcibly();
            }
        }

        private static String output(List<String> command) throws Exception {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            return s;
        }
    }
}
