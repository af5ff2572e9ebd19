package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.bgbench.loader.LoadReport;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.progress.ProgressOutput;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.junit.jupiter.api.Test;

/** A load on a terminal draws a bar of the rows instead of the per-second lines, and ends it at the rows loaded. */
class LoadingBarTest {
    private static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(200)
            .friendsPerMember(4)
            .resourcesPerMember(2)
            .seed(3)
            .build());

    @Test
    void aTerminalGetsABarEndingAtTheRowsLoaded() {
        StringWriter out = new StringWriter();
        LoadReport report;
        ProgressOutput.useTerminal(true);
        try (DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "loading-bar")))) {
            report = Loading.load(store, GRAPH, 2, true, new PrintWriter(out, true));
        } finally {
            ProgressOutput.useTerminal(false);
        }
        String text = out.toString();
        assertThat(text).as("a bar redrawn in place").contains("\r\033[Kload ");
        String last = text.substring(text.lastIndexOf("\033[K") + 3);
        assertThat(last)
                .startsWith("load 100%")
                .contains(String.format("%,d/%,d rows", report.rows(), report.rows()))
                .containsPattern("\\(\\d+:\\d\\d:\\d\\d / \\d+:\\d\\d:\\d\\d\\)");
        assertThat(text).doesNotContain("rows/s");
    }
}
