package org.bgbench.study;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A rate study's plan: a rating per store, setting, mix and repetition, each with its group's rating options. */
class RateStudyPlanTest {
    private final Study study = StudyParser.parse("t", RateStudyFiles.VALID);

    @Test
    void eachPointIsOneRatingInItsOwnDirectory() {
        StudyPlan plan = StudyPlan.of(study, Scale.TINY, List.of());
        assertThat(plan.points())
                .extracting(StudyPlan.Point::key)
                .containsExactly(
                        "sqlite/reload/high/r1",
                        "sqlite/reload/high/r2",
                        "sqlite/image/high/r1",
                        "sqlite/image/high/r2");
        StudyPlan.Point first = plan.points().getFirst();
        assertThat(first.rating()).isTrue();
        assertThat(first.resultPath()).isEqualTo("points/sqlite_reload_high_r1/rating.json");
        assertThat(plan.groups()).extracting(g -> g.rating().reset()).containsExactly("reload", "image");
        assertThat(plan.groups())
                .extracting(g -> g.rating().delta())
                .containsExactly(Duration.ofMillis(500), Duration.ofMillis(200));
        // The image setting's own graph at tiny scale, over the scale's; the reload setting keeps the scale's.
        assertThat(plan.graphKeys(plan.groups().get(0))).containsEntry("usercount", "100");
        assertThat(plan.graphKeys(plan.groups().get(1))).containsEntry("usercount", "300");
        // About: 1 + log2(4) climbing and log2(4) local experiments of δ, no warm-up, one confirmation of Δ = 1 s.
        assertThat(plan.measuredTime()).isEqualTo(Duration.ofMillis(2 * (5 * 500 + 1000) + 2 * (5 * 200 + 1000)));
    }

    @Test
    void theDeviationsNameEachRatingOptionThatDiffersFromThePaperScale() {
        StudyPlan plan = StudyPlan.of(study, Scale.TINY, List.of());
        assertThat(plan.deviations())
                .contains(
                        "sla=95%:100ms:0.01%:1s (paper: 95%:100ms:0.01%:10m)",
                        "delta=500ms (paper: 180s) for reload",
                        "max_threads=4 (paper: 1024)",
                        "usercount=300 (paper: 10000) for image",
                        "2 repetition(s) per point (paper: 1)")
                // The image setting's δ and both settings' resets are theirs at every scale: no deviation.
                .noneMatch(d -> d.startsWith("reset=") || d.startsWith("delta=200ms"));
        assertThat(StudyPlan.of(study, Scale.PAPER, List.of()).deviations()).isEmpty();
    }
}
