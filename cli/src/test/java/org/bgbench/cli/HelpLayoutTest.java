package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Every command's help, rendered at a fixed width: sections, whole one-line summaries, defaults, readable labels. */
class HelpLayoutTest {
    /** The options a newcomer sets first: their defaults must be stated, even those computed at run time. */
    private static final Set<String> CORE = Set.of("--threads", "--warmup", "--duration", "--workload");

    private static CommandLine bg(int width) {
        CommandLine cl = Bg.commandLine();
        cl.setUsageHelpAutoWidth(false);
        cl.setUsageHelpWidth(width);
        return cl;
    }

    /** Every command below bg, by its qualified name ("bg run"), without picocli's own help command. */
    private static Map<String, CommandLine> commands(CommandLine cl) {
        Map<String, CommandLine> all = new LinkedHashMap<>();
        walk(cl, all);
        all.remove("bg help");
        return all;
    }

    private static void walk(CommandLine cl, Map<String, CommandLine> all) {
        all.put(cl.getCommandSpec().qualifiedName(), cl);
        cl.getSubcommands().values().forEach(sub -> walk(sub, all));
    }

    @ParameterizedTest
    @ValueSource(ints = {80, 120})
    void noLineIsWiderThanTheUsageWidth(int width) {
        commands(bg(width)).forEach((name, cl) -> {
            for (String line : cl.getUsageMessage().split("\\R")) {
                assertThat(line.length()).as(name + ": " + line).isLessThanOrEqualTo(width);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {80, 120})
    void bgListsEveryCommandWithItsWholeOneSentenceSummary(int width) {
        CommandLine cl = bg(width);
        String usage = cl.getUsageMessage();
        String list = usage.substring(usage.indexOf("Commands:"));
        for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
            String[] header = e.getValue().getCommandSpec().usageMessage().header();
            String summary = header.length > 0
                    ? header[0]
                    : e.getValue().getCommandSpec().usageMessage().description()[0];
            assertThat(header.length).as(e.getKey() + ": one summary line").isLessThanOrEqualTo(1);
            assertThat(summary).as(e.getKey()).endsWith(".");
            // The summary is on the command's own line, whole: not cut, not wrapped onto a second line.
            assertThat(list).as(e.getKey()).containsPattern("(?m)^  " + e.getKey() + " +\\Q" + summary + "\\E$");
        }
    }

    @Test
    void bgListsTheCommandsInTheOrderAUserNeedsThem() {
        List<String> names = new ArrayList<>(bg(80).getSubcommands().keySet());
        assertThat(names.subList(0, 11))
                .containsExactly(
                        "quickstart",
                        "load",
                        "run",
                        "rate",
                        "delta",
                        "sweep",
                        "validate",
                        "verify",
                        "compare",
                        "deck",
                        "worker");
        assertThat(names.getLast()).isEqualTo("help");
    }

    @Test
    void everyOptionIsInASectionAndEverySectionHasItsHeading() {
        commands(bg(100)).forEach((name, cl) -> {
            String usage = cl.getUsageMessage();
            assertThat(usage).as(name).startsWith("Usage: " + name);
            for (OptionSpec o : cl.getCommandSpec().options()) {
                HelpSection section = HelpSection.of(cl.getCommandSpec().name(), o);
                assertThat(section).as(name + " " + o.longestName()).isNotEqualTo(HelpSection.OTHER);
                assertThat(usage).as(name).contains("\n" + section.heading() + ":\n");
            }
        });
        String run = bg(100).getSubcommands().get("run").getUsageMessage();
        assertThat(run.indexOf("The experiment:"))
                .isLessThan(run.indexOf("The store:"))
                .isLessThan(run.indexOf("Workers and security:"));
        assertThat(run.indexOf("Workers and security:")).isLessThan(run.indexOf("The open model:"));
        assertThat(run.indexOf("The open model:")).isLessThan(run.indexOf("Output:"));
    }

    @Test
    void everyDefaultIsShown() {
        commands(bg(100)).forEach((name, cl) -> {
            for (OptionSpec o : cl.getCommandSpec().options()) {
                String description = String.join(" ", o.description());
                if (o.defaultValue() != null) {
                    description = description.replace("${DEFAULT-VALUE}", o.defaultValue());
                }
                String what = name + " " + o.longestName() + ": " + description;
                if (o.defaultValue() != null) {
                    assertThat(description).as(what).contains(o.defaultValue());
                }
                if (CORE.contains(o.longestName())) {
                    assertThat(description).as(what).containsIgnoringCase("default");
                }
            }
        });
    }

    @Test
    void descriptionsAreParagraphsAndPlaceholdersAreReadable() {
        commands(bg(100)).forEach((name, cl) -> {
            // Each element of a description is a paragraph picocli wraps, not a line cut by hand mid-sentence.
            for (String paragraph : cl.getCommandSpec().usageMessage().description()) {
                assertThat(paragraph.strip()).as(name).endsWith(".");
            }
            for (OptionSpec o : cl.getCommandSpec().options()) {
                if (o.arity().max() > 0) {
                    // A label picocli made from the field's name ("<maxThreads>") says nothing about the value.
                    assertThat(o.paramLabel()).as(name + " " + o.longestName()).doesNotStartWith("<");
                }
                for (String paragraph : o.description()) {
                    assertThat(paragraph.strip())
                            .as(name + " " + o.longestName())
                            .matches("(?s).*[.)]$");
                }
            }
            String usage = cl.getUsageMessage();
            assertThat(usage).as(name).doesNotContain("…...").doesNotContain(",…[");
        });
    }
}
