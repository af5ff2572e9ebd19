package org.bgbench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.workload.mix.Mixes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PropertyFilesTest {
    @TempDir
    Path dir;

    @Test
    void readsInFileOrderWithPropertiesSyntax() throws IOException {
        Path f = dir.resolve("HighUpdateActions");
        Files.writeString(f, """
                # USC BG workload file
                workload=edu.usc.bg.workloads.CoreWorkload
                ViewProfileAction=0.35
                ListFriendsAction : 0.05
                ! another comment
                ViewFriendReqAction 0.05
                InviteFriendAction=0.0\\
                4
                requestdistribution=dzipfian
                ViewProfileAction=0.35
                """);
        Map<String, String> p = PropertyFiles.read(f);
        assertThat(p.keySet())
                .containsExactly(
                        "workload",
                        "ViewProfileAction",
                        "ListFriendsAction",
                        "ViewFriendReqAction",
                        "InviteFriendAction",
                        "requestdistribution");
        assertThat(p)
                .containsEntry("ViewProfileAction", "0.35")
                .containsEntry("ListFriendsAction", "0.05")
                .containsEntry("ViewFriendReqAction", "0.05")
                .containsEntry("InviteFriendAction", "0.04");
    }

    @Test
    void missingFileIsNamed() {
        Path f = dir.resolve("nope.properties");
        assertThatThrownBy(() -> PropertyFiles.read(f))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining(f.toString())
                .hasMessageContaining("no such property file");
        assertThatThrownBy(() -> PropertyFiles.read(dir))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("directory");
    }

    @Test
    void malformedEscapeIsNamed() throws IOException {
        Path f = dir.resolve("bad");
        Files.writeString(f, "key=\\uZZZZ\n");
        assertThatThrownBy(() -> PropertyFiles.read(f))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining(f.toString());
    }

    @Test
    void aUscFileBuildsASpec() throws IOException {
        Path f = dir.resolve("workload");
        Files.writeString(f, """
                ViewSelfProfileSession=0
                ViewProfileAction=0.4
                ListFriendsAction=0.05
                ViewFriendReqAction=0.05
                InviteFriendAction=0.0004
                AcceptFriendReqAction=0.0002
                RejectFriendReqAction=0.0002
                ThawFriendshipAction=0.0002
                ViewTopKResourcesAction=0.499
                """);
        WorkloadSpec s = WorkloadParameters.toSpec(PropertyFiles.read(f));
        assertThat(s.mix()).isEqualTo(Mixes.byName("verylow"));
    }
}
