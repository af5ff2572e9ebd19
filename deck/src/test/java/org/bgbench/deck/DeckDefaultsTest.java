package org.bgbench.deck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;

/** The deck's form shows and sends the command line's defaults, and its Start works with them. */
class DeckDefaultsTest {

    private static String deckJs() throws IOException {
        try (InputStream in = DeckDefaultsTest.class.getResourceAsStream("/org/bgbench/deck/web/deck.js")) {
            assertThat(in).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The placeholder of {@code option} in the options of {@code command}, as the form's table gives it. */
    private static String placeholder(String js, String command, String option) {
        Matcher block =
                Pattern.compile("(?s)\\n\\s*" + command + ": \\[(.*?)\\]\\],").matcher(js);
        assertThat(block.find()).as(command).isTrue();
        Matcher m = Pattern.compile("\\['" + Pattern.quote(option) + "', '[^']*', '([^']*)'")
                .matcher(block.group(1));
        assertThat(m.find()).as(command + " " + option).isTrue();
        return m.group(1);
    }

    @Test
    void theFormSendsNoGraphOfItsOwn() throws IOException {
        // An empty graph field is sent empty, so bg uses the command line's graph (M=10,000, φ=ρ=100).
        String js = deckJs();
        assertThat(js).doesNotContain("(deck)").doesNotContain("['usercount', '");
    }

    @Test
    void theRunFormShowsTheCommandLinesDefaultsAndLoadsFirst() throws IOException {
        String js = deckJs();
        assertThat(placeholder(js, "run", "--duration")).isEqualTo(WorkloadSpec.DEFAULT_DURATION.toSeconds() + "s");
        assertThat(placeholder(js, "run", "--beta")).isEqualTo("100ms");
        assertThat(placeholder(js, "run", "--load")).isEqualTo("flag-on");
        assertThat(placeholder(js, "sweep", "--load")).isEqualTo("flag-on");
    }
}
