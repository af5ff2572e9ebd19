package org.bgbench.measurement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LatencyLayoutTest {

    @ParameterizedTest
    @CsvSource({"1000, 3600000000000, 3", "1000, 3600000000000, 2", "1, 1000000, 3", "1, 3600000000000, 2"})
    void slotsAgreeWithHdrHistogram(long lowest, long highest, int digits) {
        LatencyLayout layout = new LatencyLayout(lowest, highest, digits);
        Histogram h = new Histogram(lowest, highest, digits);
        // Histogram's footprint is 512 bytes plus its counts array.
        assertThat(layout.length).isEqualTo((h.getEstimatedFootprintInBytes() - 512) / 8);
        for (int i = 0; i < layout.length; i++) {
            long low = layout.lowestValue(i);
            if (low > highest) {
                break;
            }
            assertThat(layout.index(low)).isEqualTo(i);
            assertThat(h.lowestEquivalentValue(low)).isEqualTo(low);
            assertThat(layout.highestValue(i)).isEqualTo(h.highestEquivalentValue(low));
        }
        SplittableRandom random = new SplittableRandom(1);
        for (int n = 0; n < 200_000; n++) {
            long v = layout.clamp((long) Math.pow(highest, random.nextDouble()) - 1);
            assertThat(layout.lowestValue(layout.index(v))).isEqualTo(h.lowestEquivalentValue(v));
        }
        assertThat(layout.index(highest)).isLessThan(layout.length);
    }

    @ParameterizedTest
    @CsvSource({"-5, 0", "0, 0", "3600000000000, 3600000000000", "9223372036854775807, 3600000000000"})
    void clampsIntoRange(long value, long clamped) {
        assertThat(Latencies.LAYOUT.clamp(value)).isEqualTo(clamped);
    }
}
