package org.bgbench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bgbench.model.Action;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadFileTest {
    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    @Test
    void anEmptyFileIsRefusedNamingItAndTheKeysThatSetAMix() throws IOException {
        Path f = file("HighUpdateActions", "");
        assertThatThrownBy(() -> WorkloadFile.read("--workload", f))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("--workload: " + f + " is empty: it sets no action frequency (such as "
                        + "ViewProfileAction=0.35; 'bg keys' lists them) and names no mix (mix=high), so it does not "
                        + "say what to run");
    }

    @Test
    void aFileOfGarbageOrOfOtherKeysOnlyIsRefused() throws IOException {
        Path garbage = file("garbage", "this is not a workload file\n");
        assertThatThrownBy(() -> WorkloadFile.read("--workload", garbage))
                .hasMessageStartingWith("--workload: " + garbage + " sets no action frequency");
        // Comments and keys of the graph or the run only: still no mix.
        Path other = file("graph", "# members\nusercount=1000\nthreadcount=4\nGetShortestDistanceAction=0\n");
        assertThatThrownBy(() -> WorkloadFile.read("--workload", other))
                .hasMessageStartingWith("--workload: " + other + " sets no action frequency");
        Path missing = dir.resolve("nosuch");
        assertThatThrownBy(() -> WorkloadFile.read("--workload", missing))
                .hasMessageStartingWith("--workload: " + missing + ": no such property file");
    }

    @Test
    void aFileWithFrequenciesLabelsItsMixWithItsNameAndKeepsItsOtherKeys() throws IOException {
        Path f = file("HighUpdateActions", """
                ViewProfileAction=0.5
                ListFriendsAction=0.5
                garbage line
                requestdistribution=uniform
                """);
        WorkloadFile w = WorkloadFile.read("--workload", f);
        assertThat(w.label()).isEqualTo("HighUpdateActions");
        assertThat(w.frequencyKeys()).containsExactlyInAnyOrder("ViewProfileAction", "ListFriendsAction");
        // Unknown lines stay among the keys: the command that knows every key warns about them.
        assertThat(w.keys()).containsEntry("garbage", "line").containsEntry("requestdistribution", "uniform");

        Map<String, String> keys = new LinkedHashMap<>(w.keys());
        keys.put(WorkloadParameters.MIX_NAME, w.label());
        WorkloadSpec spec = WorkloadParameters.toSpec(keys);
        assertThat(spec.mixName()).isEqualTo("HighUpdateActions");
        assertThat(spec.mix().weight(Action.VP)).isEqualTo(0.5);
        assertThat(spec.mix().weight(Action.LF)).isEqualTo(0.5);
        assertThat(WorkloadParameters.toSpec(w.keys()).mixName())
                .as("without a label")
                .isEqualTo("custom");
    }

    @Test
    void aFileThatNamesAMixIsAcceptedAndALabelWithoutFrequenciesIsRefused() throws IOException {
        WorkloadFile w = WorkloadFile.read("--workload", file("named", "mix=high\n"));
        assertThat(WorkloadParameters.toSpec(w.keys()).mixName()).isEqualTo("high");
        assertThatThrownBy(() -> WorkloadParameters.toSpec(Map.of("mix", "high", WorkloadParameters.MIX_NAME, "x")))
                .hasMessageStartingWith("mixname: names a mix given by frequency keys");
    }
}
