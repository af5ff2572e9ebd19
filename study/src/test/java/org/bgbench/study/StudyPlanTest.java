package org.bgbench.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A plan's points in order, their keys, its measured time and its deviations from the paper. */
class StudyPlanTest {
    private final Study study = StudyParser.parse("t.yaml", StudyFiles.VALID);

    @Test
    void pointsRunByStoreMixTAndRepetition() {
        StudyPlan plan = StudyPlan.of(study, Scale.TINY, List.of());
        assertThat(plan.points())
                .extracting(StudyPlan.Point::key)
                .containsExactly(
                        "sqlite/vp/T=1/r1",
                        "sqlite/vp/T=1/r2",
                        "sqlite/vp/T=2/r1",
                        "sqlite/vp/T=2/r2",
                        "sqlite/high/T=1/r1",
                        "sqlite/high/T=1/r2",
                        "sqlite/high/T=2/r1",
                        "sqlite/high/T=2/r2");
        assertThat(plan.points().getFirst().resultPath()).isEqualTo("points/sqlite_vp_T=1_r1.json");
        assertThat(plan.measuredTime()).isEqualTo(Duration.ofSeconds(8));
        assertThat(plan.graphKeys()).containsEntry("zipfianmean", "0.27").containsEntry("usercount", "100");
    }

    @Test
    void settingsAreCrossedWithEveryStoreAndNamedInTheKey() {
        Study s = StudyParser.parse(
                "t.yaml",
                StudyFiles.with(
                        "graph: {zipfianmean",
                        "settings:\n  - {name: a, keys: {images: inline}}\n  - {name: b, keys: {images: fs}}\n"
                                + "graph: {zipfianmean"));
        StudyPlan plan = StudyPlan.of(s, Scale.PAPER, List.of());
        assertThat(plan.groups()).extracting(StudyPlan.Group::name).containsExactly("sqlite-a", "sqlite-b");
        assertThat(plan.points().getFirst().key()).isEqualTo("sqlite/a/vp/T=1/r1");
        assertThat(plan.groups().get(1).keys()).containsEntry("images", "fs");
    }

    @Test
    void deviationsNameEverySettingThatDiffersFromThePapers() {
        assertThat(StudyPlan.of(study, Scale.TINY, List.of()).deviations())
                .contains(
                        "usercount=100 (paper: 10000)",
                        "friendcountperuser=4 (the paper's scale does not set it)",
                        "T = 1, 2 (paper: 1, 2, 4, 8)",
                        "points of 1s (paper: 600s)",
                        "warm-up of 0s (paper: 60s)",
                        "2 repetition(s) per point (paper: 3)");
        assertThat(StudyPlan.of(study, Scale.PAPER, List.of()).deviations()).isEmpty();
    }

    @Test
    void aStoreTheStudyDoesNotMeasureIsRefused() {
        assertThatThrownBy(() -> StudyPlan.of(study, Scale.TINY, List.of("mongodb")))
                .hasMessage("test-study: stores: has no store 'mongodb'; it measures sqlite (--store)");
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(StudyDocument.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(StudyDocument.median(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
        assertThat(StudyDocument.median(List.of())).isNull();
    }
}
