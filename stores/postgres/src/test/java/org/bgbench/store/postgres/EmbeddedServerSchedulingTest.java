package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bgbench.store.SchedulingPolicy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A BG started as {@code SCHED_BATCH} (the bg launcher's {@code BG_SCHED=batch}) puts the embedded PostgreSQL it starts back to the
 * normal policy: the postmaster, the background processes it started, and a backend forked for a connection later.
 * In a real JVM under {@code chrt --batch}, read back from the kernel's /proc.
 */
@Tag("server")
class EmbeddedServerSchedulingTest {
    @Test
    void theEmbeddedServerRunsAtTheNormalPolicyUnderABatchBg() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                "chrt",
                "--batch",
                "0",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Child.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("bg batch", "postmaster normal", "backend normal");
        // Every process of the server, background ones included, at SCHED_OTHER.
        String all =
                out.lines().filter(l -> l.startsWith("server ")).findFirst().orElseThrow();
        assertThat(all.substring("server ".length()).split(" "))
                .hasSizeGreaterThanOrEqualTo(4)
                .containsOnly("normal");
    }

    /** Runs under chrt --batch: starts the embedded server, connects, reports the policies. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            System.out.println("bg " + SchedulingPolicy.current());
            try (EmbeddedServer s = EmbeddedServer.start();
                    Connection c = DriverManager.getConnection(s.url(), "postgres", "postgres")) {
                long postmaster = s.pid().orElseThrow();
                long backend;
                try (var r = c.createStatement().executeQuery("SELECT pg_backend_pid()")) {
                    r.next();
                    backend = r.getLong(1);
                }
                System.out.println("postmaster " + SchedulingPolicy.of(postmaster));
                System.out.println("backend " + SchedulingPolicy.of(backend));
                StringBuilder all = new StringBuilder("server");
                ProcessHandle.of(postmaster)
                        .orElseThrow()
                        .descendants()
                        .forEach(d -> all.append(' ').append(SchedulingPolicy.of(d.pid())));
                System.out.println(all);
            }
        }
    }
}
