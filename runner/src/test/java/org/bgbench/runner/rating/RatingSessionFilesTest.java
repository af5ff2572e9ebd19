package org.bgbench.runner.rating;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.bgbench.rating.Experiment;
import org.bgbench.rating.ExperimentFile;
import org.bgbench.rating.Measurement;
import org.bgbench.rating.Phase;
import org.junit.jupiter.api.Test;

/**
 * Which result file the rating's report links each experiment to: a confirmation run repeated at one T links to its
 * own file and shows its own latency, resumed experiments take none of this session's files, and an unwritten result
 * leaves its experiment without a link and the next ones with theirs.
 */
class RatingSessionFilesTest {
    private static Experiment experiment(int index, Phase phase, int threads, Duration duration, boolean resumed) {
        return new Experiment(
                index,
                phase,
                new Experiment.Input(threads, duration),
                new Measurement(1_000 * index, 100, 0, 0, 1_000, duration.toSeconds()),
                new Experiment.Verdict(true, List.of()),
                new Experiment.Origin(Instant.EPOCH, 1, resumed));
    }

    private static ExperimentFile file(String name, double p95) {
        return new ExperimentFile(name, new ExperimentFile.Latency(p95 / 2, p95, p95 * 2));
    }

    @Test
    void repeatedConfirmationRunsEachLinkToTheirOwnFile() {
        Duration delta = Duration.ofSeconds(2);
        Duration big = Duration.ofSeconds(5);
        List<Experiment> experiments = List.of(
                experiment(1, Phase.SOAR_CLIMB, 1, delta, false),
                experiment(2, Phase.CONFIRMATION, 1, big, false),
                experiment(3, Phase.CONFIRMATION, 1, big, false),
                experiment(4, Phase.CONFIRMATION, 1, big, false));
        List<ExperimentFile> files =
                List.of(file("01-T1.json", 1), file("02-T1.json", 2), file("03-T1.json", 3), file("04-T1.json", 4));

        Map<Integer, ExperimentFile> byIndex = RatingSession.experimentFiles(experiments, files);

        assertThat(byIndex).hasSize(4);
        assertThat(byIndex.get(2).href()).isEqualTo("02-T1.json");
        assertThat(byIndex.get(3).href()).isEqualTo("03-T1.json");
        assertThat(byIndex.get(3).latency().p95Ms()).isEqualTo(3.0);
        assertThat(byIndex.get(4).href()).isEqualTo("04-T1.json");
    }

    @Test
    void resumedExperimentsTakeNoFileAndAnUnwrittenOneLeavesAGap() {
        Duration delta = Duration.ofSeconds(2);
        List<Experiment> experiments = List.of(
                experiment(1, Phase.SOAR_CLIMB, 1, delta, true),
                experiment(2, Phase.SOAR_CLIMB, 2, delta, false),
                experiment(3, Phase.SOAR_CLIMB, 4, delta, false),
                experiment(4, Phase.SOAR_CLIMB, 8, delta, false));
        List<ExperimentFile> files = Arrays.asList(file("02-T2.json", 1), null, file("04-T8.json", 1));

        Map<Integer, ExperimentFile> byIndex = RatingSession.experimentFiles(experiments, files);

        assertThat(byIndex.keySet()).containsExactly(2, 4);
        assertThat(byIndex.get(2).href()).isEqualTo("02-T2.json");
        assertThat(byIndex.get(4).href()).isEqualTo("04-T8.json");
    }
}
