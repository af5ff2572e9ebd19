package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;

/** The choice of the saturating T from synthetic utilisation readings whose answer is known. */
class SaturatingThreadsTest {
    /** The search as the analyzer runs it, each probe's readings from {@code store}; the probes run end the list. */
    private static SaturatingThreads.Step search(
            IntFunction<List<SaturatingThreads.Use>> store, SaturatingThreads.Settings s, List<Integer> probed) {
        List<SaturatingThreads.Probe> probes = new ArrayList<>();
        int t = SaturatingThreads.first();
        while (true) {
            probed.add(t);
            probes.add(new SaturatingThreads.Probe(t, 100.0 * t, store.apply(t)));
            SaturatingThreads.Step step = SaturatingThreads.next(probes, s);
            if (step.done()) {
                return step;
            }
            t = step.threads();
        }
    }

    private static List<SaturatingThreads.Use> cpu(double fraction) {
        return List.of(new SaturatingThreads.Use("db1:9100", "cpu", Math.min(1, fraction)));
    }

    @Test
    void aLinearStoreIsFilledAtThePredictedThreadCountTimesTheInflationFactor() {
        // 10 % CPU per thread: T = 1 predicts 10 threads; c inflates the prediction.
        List<Integer> probed = new ArrayList<>();
        SaturatingThreads.Step step =
                search(t -> cpu(0.1 * t), new SaturatingThreads.Settings(1, 0.9, 5, 1024), probed);
        assertThat(step.threads()).isEqualTo(10);
        assertThat(probed).containsExactly(1, 10);
        assertThat(step.use().resource()).isEqualTo("cpu");
        assertThat(step.reason()).contains("T = 10 fills a resource", "cpu of db1:9100 at 100 %");

        probed.clear();
        step = search(t -> cpu(0.1 * t), new SaturatingThreads.Settings(1.5, 0.9, 5, 1024), probed);
        assertThat(step.threads()).isEqualTo(15);
        assertThat(probed).containsExactly(1, 15);
    }

    @Test
    void aResourceThatStopsRisingEndsTheSearchAtTheSmallerThreadCount() {
        // The store never uses more than 60 % of its CPU (another limit, such as locks): T = 5 reaches it.
        List<Integer> probed = new ArrayList<>();
        SaturatingThreads.Step step =
                search(t -> cpu(Math.min(0.6, 0.2 * t)), new SaturatingThreads.Settings(1, 0.9, 5, 1024), probed);
        assertThat(probed).containsExactly(1, 5, 9);
        assertThat(step.threads()).isEqualTo(5);
        assertThat(step.reason()).contains("stopped rising", "at T = 5", "at T = 9");
    }

    @Test
    void theBusiestResourceDecidesWhichIsNamed() {
        IntFunction<List<SaturatingThreads.Use>> store = t -> List.of(
                new SaturatingThreads.Use("db1:9100", "cpu", 0.05 * t),
                new SaturatingThreads.Use("db1:9100", "disk", Math.min(1, 0.25 * t)),
                new SaturatingThreads.Use("db1:9100", "network", 0.01 * t));
        SaturatingThreads.Step step = search(store, new SaturatingThreads.Settings(1, 0.9, 5, 1024), new ArrayList<>());
        assertThat(step.threads()).isEqualTo(4);
        assertThat(step.use().resource()).isEqualTo("disk");
    }

    @Test
    void theLargestThreadCountAllowedEndsASearchThatNeverFills() {
        List<Integer> probed = new ArrayList<>();
        SaturatingThreads.Step step =
                search(t -> cpu(0.001 * t), new SaturatingThreads.Settings(1.5, 0.9, 5, 8), probed);
        assertThat(probed).containsExactly(1, 8);
        assertThat(step.threads()).isEqualTo(8);
        assertThat(step.reason()).contains("--max-threads 8 reached");
    }

    @Test
    void badSettingsNameTheirOption() {
        assertThatThrownBy(() -> new SaturatingThreads.Settings(0.5, 0.9, 5, 8))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--inflation");
        assertThatThrownBy(() -> new SaturatingThreads.Settings(1.5, 0.9, 5, 0))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--max-threads");
    }
}
