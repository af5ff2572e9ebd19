package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class RatingReportAxisTest {
    @Test
    void theOpenModelsAxisSaysRatesWhereTheSearchSaysT() {
        RatingReport.Axis a = RatingReport.Axis.arrivals(369);
        assertThat(a.words("Socialites: the confirmation run of Δ=30s at T=26 missed the SLA"))
                .isEqualTo("Open-model rating: the confirmation run of Δ=30s at rate=9,594/s missed the SLA");
        assertThat(a.words("Socialites: T=max-threads=100 still met the SLA: the Socialites rating may be higher; "
                        + "raise max-threads."))
                .isEqualTo("Open-model rating: rate=36,900/s still met the SLA: the "
                        + "Open-model rating may be higher; raise --max-rate.");
        assertThat(a.words("9.03% at T=27 but 34.52% at T=28 (response time does not fall as T grows)"))
                .isEqualTo("9.03% at rate=9,963/s but 34.52% at rate=10,332/s (response time does not fall as the "
                        + "rate grows)");
        assertThat(RatingReport.Axis.THREADS.words("at T=26")).isEqualTo("at T=26");
        assertThat(a.value(26)).isEqualTo("9,594");
    }

    @Test
    void aRatingWithTheOpenModelsWordingWarnsInRates() {
        Sla sla = new Sla(95, Duration.ofMillis(100), 0.01, Duration.ofSeconds(10));
        RatingSettings settings = RatingSettings.builder(sla)
                .experimentDuration(Duration.ofSeconds(10))
                .targets(EnumSet.of(Target.SOCIALITES))
                .maxThreads(4)
                .confirm(false)
                .wording(RatingReport.Axis.arrivals(100)::words)
                .build();
        // Every rate meets the SLA: the search stops at the cap and says so in rates.
        RatingResult r = new Rating(settings, (x, d) -> new Measurement(x * 100.0, 100, 0, 0, x * 1000L, 10)).rate();
        assertThat(r.socialites().orElseThrow().threads()).isEqualTo(4);
        List<String> w = r.warnings();
        assertThat(w)
                .anySatisfy(s -> assertThat(s)
                        .contains("rate=400/s still met the SLA", "raise --max-rate")
                        .doesNotContain("T="));
    }
}
