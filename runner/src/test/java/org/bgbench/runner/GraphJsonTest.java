package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** graph.json beside a result keeps the flat keys of earlier BGs, and a file of an earlier BG is read as it was. */
class GraphJsonTest {
    @TempDir
    Path dir;

    private static final GraphSpec SPEC = GraphSpec.builder()
            .members(200)
            .memberIdOffset(7)
            .friendsPerMember(10)
            .resourcesPerMember(5)
            .commentsPerResource(2)
            .confirmedFraction(0.7)
            .images(true)
            .thumbnailBytes(16)
            .profileImageBytes(64)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(2)
            .seed(3)
            .feed(new FeedSpec(10, 3, 0, 2))
            .build();

    @Test
    void theGraphIsWrittenWithTheFlatKeysInTheirOrder() throws Exception {
        ExpectedStateFile.save(dir, new GraphState(new SocialGraph(SPEC)), "run-1");
        JsonNode graph =
                new ObjectMapper().readTree(dir.resolve(ExpectedStateFile.GRAPH).toFile());
        List<String> keys = new ArrayList<>();
        graph.fieldNames().forEachRemaining(keys::add);
        assertThat(keys)
                .containsExactly(
                        "members",
                        "memberIdOffset",
                        "friendsPerMember",
                        "resourcesPerMember",
                        "commentsPerResource",
                        "confirmedFraction",
                        "images",
                        "thumbnailBytes",
                        "profileImageBytes",
                        "attributeCount",
                        "attributeLength",
                        "commentLength",
                        "fragments",
                        "seed",
                        "feed");
        assertThat(graph.path("memberIdOffset").asInt()).isEqualTo(7);
        assertThat(graph.path("feed").path("pages").asInt()).isEqualTo(10);
        assertThat(ExpectedStateFile.load(dir, null).state().graph().spec()).isEqualTo(SPEC);
    }

    @Test
    void aGraphFileOfAnEarlierBgIsReadAsItWas() throws Exception {
        ExpectedStateFile.save(dir, new GraphState(new SocialGraph(SPEC)), "run-1");
        // As BG wrote it when GraphSpec was one flat record (feed without pages: null reads as none).
        Files.writeString(dir.resolve(ExpectedStateFile.GRAPH), """
                {"members":200,"memberIdOffset":7,"friendsPerMember":10,"resourcesPerMember":5,
                 "commentsPerResource":2,"confirmedFraction":0.7,"images":true,"thumbnailBytes":16,
                 "profileImageBytes":64,"attributeCount":4,"attributeLength":6,"commentLength":20,"fragments":2,
                 "seed":3,"feed":{"pages":10,"pagesPerMember":3,"followersPerPage":0,"resourcesPerPage":2}}
                """);
        assertThat(ExpectedStateFile.load(dir, null).state().graph().spec().fingerprint())
                .isEqualTo(SPEC.fingerprint());
    }
}
