package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.bgbench.loader.LoadException;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A saved state cut short is refused with the file and the part of the state where it ends, not "null". */
class StateFilesTest {
    private static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(400)
            .friendsPerMember(10)
            .resourcesPerMember(5)
            .commentsPerResource(2)
            .confirmedFraction(0.8)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(8)
            .fragments(2)
            .seed(5)
            .build());

    @TempDir
    Path dir;

    @Test
    void aStateFileCutShortIsNamedWithWhereItEnds() throws Exception {
        GraphState state = new GraphState(GRAPH);
        for (int b = 1, invited = 0; b < GRAPH.members() && invited < 20; b++) {
            if (state.relation(0, b) == Relation.NONE) {
                state.invite(0, b);
                invited++;
            }
        }
        StateFiles files = new StateFiles(dir);
        files.save("t1", state);
        assertThat(files.read("t1", GRAPH)).isPresent();
        Path f = files.fileFor("t1");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(Files.size(f) - 30);
        }
        assertThatThrownBy(() -> files.read("t1", GRAPH))
                .isInstanceOf(LoadException.class)
                .hasMessageContaining("cannot read BG's saved state " + f + " (ends inside member ")
                .hasMessageNotContaining("null");
    }
}
