package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.bgbench.runner.Parameters;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;

class RunDefaultsTest {
    private static final WorkloadSpec HIGH = WorkloadParameters.toSpec(Map.of("mix", "high"));

    private static Parameters keys(String... overrides) {
        return Parameters.of(List.of(), List.of(overrides));
    }

    @Test
    void theDefaultRunMeasuresSixtySecondsAfterATenSecondWarmup() {
        RunDefaults.Timing t = RunDefaults.timing(null, null, null, keys(), HIGH);
        assertThat(t.warmup()).isEqualTo("10000ms");
        assertThat(t.duration()).isEqualTo("1m");
    }

    @Test
    void aShortRunWarmsUpForASixthOfIt() {
        assertThat(RunDefaults.timing("3s", null, null, keys(), HIGH).warmup()).isEqualTo("500ms");
    }

    @Test
    void aGivenWarmupRequestCountOrWorkloadKeyIsKept() {
        assertThat(RunDefaults.timing("3s", null, "0", keys(), HIGH).warmup()).isEqualTo("0");
        assertThat(RunDefaults.timing(null, 500L, null, keys(), HIGH).warmup()).isNull();
        assertThat(RunDefaults.timing("3s", null, null, keys("warmup=0"), HIGH).warmup())
                .isNull();
    }
}
