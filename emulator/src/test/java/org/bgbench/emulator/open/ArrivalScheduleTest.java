package org.bgbench.emulator.open;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.SplittableRandom;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;

class ArrivalScheduleTest {
    private static final long S = 1_000_000_000L;

    @Test
    void stepsAndRampsAreReadAsWrittenAndRateAtFollowsThem() {
        ArrivalSchedule s = ArrivalSchedule.parse("1000:30s, 2000:30s,ramp:4000:60s", null);
        assertThat(s.phases()).hasSize(3);
        assertThat(s.text()).isEqualTo("1000:30s,2000:30s,ramp:4000:60s");
        assertThat(s.length()).isEqualTo(Duration.ofSeconds(120));
        assertThat(s.process()).isEqualTo(ArrivalSchedule.Process.CONSTANT);
        assertThat(s.rateAt(0)).isEqualTo(1000);
        assertThat(s.rateAt(30 * S)).isEqualTo(2000);
        assertThat(s.rateAt(90 * S)).isCloseTo(3000, within(1e-9));
        assertThat(s.rateAt(500 * S)).isEqualTo(4000);
        assertThat(s.phaseAt(29 * S)).isZero();
        assertThat(s.phaseAt(60 * S)).isEqualTo(2);
        // 30 000 + 60 000 + the ramp's mean 3000 × 60 s.
        assertThat(s.arrivalsUntil(120 * S)).isCloseTo(270_000, within(1e-6));
        assertThat(s.arrivalsUntil(45 * S)).isCloseTo(60_000, within(1e-6));
        assertThat(s.warmupRate()).isEqualTo(1000);
        assertThat(s.peakRate()).isEqualTo(4000);
        assertThat(s.scaled(0.25).text()).isEqualTo("250:30s,500:30s,ramp:1000:60s");
    }

    @Test
    void aSingleRateLastsTheRunAndALeadingRampStartsFromZero() {
        ArrivalSchedule one = ArrivalSchedule.parse("1500", "poisson");
        assertThat(one.length()).isNull();
        assertThat(one.process()).isEqualTo(ArrivalSchedule.Process.POISSON);
        assertThat(one.arrivalsUntil(10 * S)).isCloseTo(15_000, within(1e-6));
        ArrivalSchedule ramp = ArrivalSchedule.parse("ramp:100:10s", null);
        assertThat(ramp.rateAt(0)).isZero();
        assertThat(ramp.rateAt(5 * S)).isCloseTo(50, within(1e-9));
        assertThat(ramp.text()).isEqualTo("ramp:100:10s");
        assertThat(ArrivalSchedule.parse("10:1500ms", null).text()).isEqualTo("10:1500ms");
    }

    @Test
    void badSchedulesNameTheOptionAndWhatIsAccepted() {
        for (String bad : new String[] {
            "", "abc", "-5", "0", "1000:30s:5", "ramp:1000", "1000,2000:5s", "100:0s", "ramp:x:5s", "1000:soon"
        }) {
            assertThatThrownBy(() -> ArrivalSchedule.parse(bad, null))
                    .as(bad)
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageContaining("--arrivals");
        }
        assertThatThrownBy(() -> ArrivalSchedule.parse("100", "bursty"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--arrival-process")
                .hasMessageContaining("constant or poisson");
    }

    @Test
    void theClockSpacesConstantArrivalsExactlyAndEndsWithTheSchedule() {
        // 1.5 M/s: gaps of 666.67 ns must not round to 667 and drift.
        ArrivalClock c = new ArrivalClock(ArrivalSchedule.parse("1500000:1s", null), 1_000);
        c.startSchedule(1_000);
        SplittableRandom rnd = new SplittableRandom(1);
        long last = 0;
        int n = 0;
        for (long due = c.claim(rnd); due != Long.MAX_VALUE; due = c.claim(rnd)) {
            assertThat(due).isGreaterThanOrEqualTo(last);
            last = due;
            n++;
        }
        // The gaps are kept to 1/1024 ns: the schedule drifts by at most ~1 µs (1.5 arrivals) in the second.
        assertThat(n).isBetween(1_499_998, 1_500_002);
        assertThat(last - 1_000).isCloseTo(S, within(1_000L));
    }

    @Test
    void poissonGapsHaveTheRatesMeanAndAnExponentialSpread() {
        ArrivalClock c = new ArrivalClock(ArrivalSchedule.parse("1000:100s", "poisson"), 0);
        c.startSchedule(0);
        SplittableRandom rnd = new SplittableRandom(3);
        long prev = c.claim(rnd);
        int n = 0;
        int shortGaps = 0;
        for (long due = c.claim(rnd); due != Long.MAX_VALUE; due = c.claim(rnd)) {
            if (due - prev < 1_000_000 * Math.log(2)) {
                shortGaps++;
            }
            prev = due;
            n++;
        }
        // 100 000 expected, sd ~316; half the gaps shorter than the median ln 2 / λ.
        assertThat(n).isBetween(98_500, 101_500);
        assertThat((double) shortGaps / n).isCloseTo(0.5, within(0.01));
    }

    @Test
    void theWarmupRunsAtTheFirstPhasesRateAndThePhasesStartWithTheMeasuredPeriod() {
        ArrivalClock c = new ArrivalClock(ArrivalSchedule.parse("10:1s,ramp:30:1s", null), 0);
        SplittableRandom rnd = new SplittableRandom(1);
        assertThat(c.claim(rnd)).isZero();
        assertThat(c.claim(rnd)).isEqualTo(100_000_000L);
        assertThat(c.phaseOf(100_000_000L)).isEqualTo(-1);
        c.startSchedule(150_000_000L);
        assertThat(c.claim(rnd)).isEqualTo(200_000_000L);
        assertThat(c.phaseOf(200_000_000L)).isZero();
        assertThat(c.phaseOf(1_200_000_000L)).isEqualTo(1);
        // Backlog: nothing else taken; due from 0.3 s up to 1.15 s at 10/s: 8.5 arrivals' worth of the schedule.
        assertThat(c.untakenBefore(1_150_000_000L)).isCloseTo(8.5, within(0.01));
        assertThat(c.oldestUntaken()).isEqualTo(300_000_000L);
    }
}
