package org.bgbench.runner.rating;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.bgbench.measurement.CpuResult;
import org.junit.jupiter.api.Test;

/** A noisy host is the machine's CPU saturated while BG's is not, with a real share busy elsewhere. */
class HostNoiseTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The CPU figures of an experiment as its result JSON writes them (an embedded store: no store pids). */
    private static CpuResult cpu(double bg, double machine) throws Exception {
        return JSON.readValue(
                "{\"bg_cores\": " + bg + ", \"machine_cores\": " + machine
                        + ", \"bg_available_cores\": 2, \"machine_cpus\": 2, \"store_pids\": []}",
                CpuResult.class);
    }

    @Test
    void otherProcessesOnASaturatedMachineAreNamed() throws Exception {
        // As measured on a shared 2-core machine: BG 0.36 cores, the machine 2.0.
        String noise = HostNoise.describe(List.of(cpu(0.36, 2.0), cpu(0.5, 1.2), cpu(0.4, 1.95)));
        assertThat(noise)
                .contains("saturated in 2 of 3 experiments")
                .contains("1.6 of its 2 cores busy with processes other than BG");
    }

    @Test
    void bgSaturatingTheMachineItselfIsNoNoise() throws Exception {
        assertThat(HostNoise.describe(List.of(cpu(1.9, 2.0), cpu(0.3, 0.9)))).isNull();
    }

    @Test
    void unknownMachineFiguresAreNoNoise() throws Exception {
        CpuResult offLinux = JSON.readValue(
                "{\"bg_cores\": 0.3, \"bg_available_cores\": 2, \"machine_cpus\": 0, \"store_pids\": []}",
                CpuResult.class);
        assertThat(HostNoise.describe(List.of(offLinux))).isNull();
    }
}
