package org.bgbench.runner.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The throttle of wrong credentials the workers and the deck share, with a fake clock (the workers' and the deck's
 * tests check it behind their real servers).
 */
class ThrottleTest {
    @Test
    void throttleBacksOffPerSourceCountsOnceAMinuteAndForgets() throws Exception {
        List<String> lines = new ArrayList<>();
        Throttle t = new Throttle(Duration.ofMillis(100), Duration.ofSeconds(5), 3, "secret", lines::add);
        InetAddress a = InetAddress.getByName("10.0.0.9");
        InetAddress b = InetAddress.getByName("10.0.0.10");
        long ms = TimeUnit.MILLISECONDS.toNanos(1);
        long now = 1_000_000_000L;

        assertThat(t.delay(a, now)).isZero();
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            t.refused(a, "wrong secret", now);
            waits.add(t.delay(a, now) / ms);
            now += t.delay(a, now);
        }
        assertThat(waits).containsExactly(100L, 200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L);
        assertThat(t.delay(b, now)).as("other sources are not slowed").isZero();
        assertThat(lines).singleElement().asString().startsWith("refused a call from 10.0.0.9: wrong secret");

        // A count at most once a minute (the sweep finds it)
        t.sweep(now);
        assertThat(lines).hasSize(1);
        now += Throttle.REPORT_EVERY.toNanos();
        t.sweep(now);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1))
                .startsWith("refused 7 more calls from 10.0.0.9 in the last")
                .endsWith("(8 in all)");

        t.accepted(a, now);
        assertThat(lines.get(2)).isEqualTo("10.0.0.9 presented the right secret after 8 refused calls");
        assertThat(t.delay(a, now)).isZero();

        // Bounded: the least recently seen sources are forgotten first.
        for (int i = 1; i <= 10; i++) {
            t.refused(InetAddress.getByName("10.1.0." + i), "no secret", now);
        }
        assertThat(t.sources()).isEqualTo(3);
        // and quiet ones are forgotten
        t.sweep(now + Throttle.FORGET_AFTER.toNanos() + 1);
        assertThat(t.sources()).isZero();
    }

    @Test
    void theLogNamesTheCredentialItGuards() throws Exception {
        List<String> lines = new ArrayList<>();
        Throttle t = new Throttle(Duration.ofMillis(100), Duration.ofSeconds(5), 8, "token", lines::add);
        InetAddress a = InetAddress.getByName("10.0.0.9");
        t.refused(a, "wrong token", 0);
        assertThat(t.delay(a, 0)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        t.accepted(a, 1);
        assertThat(lines)
                .containsExactly(
                        "refused a call from 10.0.0.9: wrong token; its further calls wait 100ms, "
                                + "doubling up to 5s, and are counted here once a minute",
                        "10.0.0.9 presented the right token after 1 refused call");
        assertThat(t.delay(a, 1)).isZero();
    }
}
