package org.bgbench.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A store's recorded fingerprint read back into the keys a user writes, and two graphs compared key by key. */
class GraphKeysTest {
    @Test
    void everyShapeOfGraphReadsBackToKeysThatGenerateIt() {
        List<GraphSpec> specs = List.of(
                GraphSpec.defaults(),
                GraphSpec.builder()
                        .members(2000)
                        .friendsPerMember(10)
                        .resourcesPerMember(4)
                        .confirmedFraction(0.7)
                        .build(),
                GraphSpec.builder()
                        .members(3000)
                        .images(true)
                        .thumbnailBytes(4096)
                        .fragments(2)
                        .seed(7)
                        .build(),
                GraphSpec.builder()
                        .members(1000)
                        .friendsPerMember(11)
                        .resourcesPerMember(2)
                        .build(),
                GraphSpec.builder()
                        .members(1000)
                        .friendsPerMember(10)
                        .resourcesPerMember(5)
                        .feed(new FeedSpec(100, 5, 0, 3))
                        .build());
        for (GraphSpec s : specs) {
            Map<String, String> keys =
                    GraphKeys.fromFingerprint(s.fingerprint()).orElseThrow();
            assertThat(GraphParameters.toSpec(keys).fingerprint())
                    .as(s.fingerprint())
                    .isEqualTo(s.fingerprint());
        }
    }

    @Test
    void keysNameOnlyWhatDiffersFromTheDefaults() {
        GraphSpec s = GraphSpec.builder().members(2000).friendsPerMember(10).build();
        assertThat(GraphKeys.text(GraphKeys.fromFingerprint(s.fingerprint()).orElseThrow()))
                .isEqualTo("usercount=2000 friendcountperuser=10");
        assertThat(GraphKeys.text(GraphKeys.of(GraphSpec.defaults()))).isEqualTo("usercount=10000");
    }

    @Test
    void aRecordBgDidNotWriteReadsAsNone() {
        assertThat(GraphKeys.fromFingerprint("bg-graph/0 M=5")).isEmpty();
        assertThat(GraphKeys.fromFingerprint("bg-graph/1 M=x offset=0")).isEmpty();
        assertThat(GraphKeys.fromFingerprint(GraphSpec.defaults().fingerprint() + " extra=1"))
                .isEmpty();
        assertThat(GraphKeys.fromFingerprint(null)).isEmpty();
    }

    @Test
    void differencesNameEachKeyWithBothValues() {
        GraphSpec held = GraphSpec.builder().members(2000).friendsPerMember(10).build();
        GraphSpec asked = held.toBuilder().members(3000).build();
        assertThat(GraphKeys.differences(held, asked))
                .extracting(GraphKeys.Difference::toString)
                .containsExactly("usercount 2000 (held) vs 3000 (asked)", "fragments 2 (held) vs 3 (asked)");
        assertThat(GraphKeys.differences(held, held)).isEmpty();
    }
}
