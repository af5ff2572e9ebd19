package org.bgbench.measurement.open;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.bgbench.model.Kind;
import org.junit.jupiter.api.Test;

class OpenModelMergerTest {
    private static final List<String> CODES =
            Kind.all().stream().map(Kind::code).toList();

    private static OpenModelRecorder recorder(String schedule) {
        return new OpenModelRecorder(
                schedule,
                "poisson",
                4,
                Duration.ofMillis(100),
                5,
                CODES,
                List.of(new OpenModelRecorder.PhasePlan(schedule, 0, Double.POSITIVE_INFINITY, 500, 500)));
    }

    @Test
    void twoWorkersMergeToWhatOneRecorderOfAllTheirArrivalsGivesAndTheVerdictIsTakenOnTheTotals() {
        OpenModelRecorder a = recorder("500");
        OpenModelRecorder b = recorder("500");
        OpenModelRecorder both = recorder("1000");
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < 20_000; i++) {
            OpenModelRecorder part = i % 10 == 0 ? a : b;
            long delay = (long) (rnd.nextDouble() * 5_000_000);
            // Worker a is late now and then: 1 in 10 of its arrivals, 1 in 100 of all.
            if (part == a && i % 100 == 0) {
                delay = 300_000_000L;
            }
            long service = 100_000 + rnd.nextInt(10_000_000);
            part.stripe(i).started(0, delay, i % 3 == 0);
            part.stripe(i).service(i % 4, service);
            both.stripe(i).started(0, delay, i % 3 == 0);
            both.stripe(i).service(i % 4, service);
        }
        OpenModelResult ra = a.result(10, 0, 0);
        assertThat(ra.valid()).as("worker a alone: 10 % late").isFalse();
        OpenModelResult merged = OpenModelMerger.merge(Arrays.asList(ra, null, b.result(10, 0, 0)), "1000", 8);
        OpenModelResult one = both.result(10, 0, 0);
        assertThat(merged.valid()).as("1 % of all late").isTrue();
        assertThat(merged.started()).isEqualTo(one.started());
        assertThat(merged.late()).isEqualTo(one.late());
        assertThat(merged.queued()).isEqualTo(one.queued());
        assertThat(merged.offeredRate()).isEqualTo(one.offeredRate());
        assertThat(merged.inFlightLimit()).isEqualTo(8);
        assertThat(merged.schedule()).isEqualTo("1000");
        // Lossless: the same histograms, so the same percentiles to the last digit.
        assertThat(merged.startDelay().histogram()).isEqualTo(one.startDelay().histogram());
        assertThat(merged.startDelay().p99Ms()).isEqualTo(one.startDelay().p99Ms());
        assertThat(merged.service().keySet()).isEqualTo(one.service().keySet());
        one.service()
                .forEach((k, v) ->
                        assertThat(merged.service().get(k).histogram()).isEqualTo(v.histogram()));
        assertThat(merged.phases().get(0).started())
                .isEqualTo(one.phases().get(0).started());
        assertThat(merged.phases().get(0).toRate()).isEqualTo(1000);
        assertThat(merged.phases().get(0).label()).isEqualTo("1000");
    }

    @Test
    void noOpenSectionsMergeToNone() {
        assertThat(OpenModelMerger.merge(Arrays.asList(null, null), "100", 2)).isNull();
    }
}
