package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The deck's form shows, greyed in each empty field, the default the command line itself takes: every option of the
 * form whose command declares a default shows exactly that default, and the mix selected until one is chosen is the
 * command's own.
 */
class DeckFormDefaultsTest {

    private static String deckJs() throws IOException {
        try (InputStream in = DeckFormDefaultsTest.class.getResourceAsStream("/org/bgbench/deck/web/deck.js")) {
            assertThat(in).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "rate", "load", "delta", "sweep"})
    void everyFieldShowsTheDefaultOfItsCommand(String command) throws IOException {
        String js = deckJs();
        Matcher block =
                Pattern.compile("(?s)\\n\\s*" + command + ": \\[(.*?)\\]\\],").matcher(js);
        assertThat(block.find()).as(command).isTrue();
        CommandLine cl = Bg.commandLine().getSubcommands().get(command);
        Matcher option =
                Pattern.compile("\\['(--[\\w-]+)', '[^']*', '([^']*)'\\]").matcher(block.group(1));
        int checked = 0;
        while (option.find()) {
            String name = option.group(1);
            String shown = option.group(2);
            OptionSpec spec = cl.getCommandSpec().findOption(name);
            assertThat(spec).as(command + " " + name).isNotNull();
            if (shown.startsWith("flag") || spec.defaultValue() == null) {
                continue;
            }
            assertThat(shown).as(command + " " + name).isEqualTo(spec.defaultValue());
            checked++;
        }
        assertThat(checked > 0 || command.equals("load")).as(command).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "rate", "delta", "sweep"})
    void theMixSelectedFirstIsTheCommandsOwn(String command) throws IOException {
        Matcher m = Pattern.compile("const DEFAULT_MIX = \\{([^}]*)\\}").matcher(deckJs());
        assertThat(m.find()).isTrue();
        Matcher mix = Pattern.compile("\\b" + command + ": '([^']+)'").matcher(m.group(1));
        assertThat(mix.find()).as(command).isTrue();
        OptionSpec workload =
                Bg.commandLine().getSubcommands().get(command).getCommandSpec().findOption("--workload");
        // The default is in the option's description: "default high" or "…, else low" (WorkloadSpec.DEFAULT_MIX).
        String description = String.join(" ", workload.description());
        String expected = description.contains("else " + WorkloadSpec.DEFAULT_MIX) ? WorkloadSpec.DEFAULT_MIX : "high";
        assertThat(description).as(command).containsAnyOf("default " + expected, "else " + expected);
        assertThat(mix.group(1)).as(command).isEqualTo(expected);
    }
}
