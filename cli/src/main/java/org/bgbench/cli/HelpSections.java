package org.bgbench.cli;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * How every command's help is laid out: a short synopsis, then the options in sections (the experiment, the store,
 * workers and security, the open model, output, help), each in the order its class declares them, wrapped by picocli
 * to the terminal's width. Which section an option belongs to is {@link HelpSection#of}.
 */
final class HelpSections {
    /** The widest option column before picocli moves an option's description to the next line. */
    private static final int LONG_OPTIONS_WIDTH = 26;

    private static final List<String> HEADER =
            List.of(UsageMessageSpec.SECTION_KEY_HEADER_HEADING, UsageMessageSpec.SECTION_KEY_HEADER);

    private HelpSections() {}

    /** Lays out the help of {@code root} and of every command below it. */
    static CommandLine apply(CommandLine root) {
        root.setUsageHelpAutoWidth(true);
        root.setUsageHelpLongOptionsMaxWidth(LONG_OPTIONS_WIDTH);
        root.getCommandSpec().usageMessage().commandListHeading("%nCommands:%n");
        layout(root);
        return root;
    }

    private static void layout(CommandLine cl) {
        UsageMessageSpec usage = cl.getCommandSpec().usageMessage();
        usage.abbreviateSynopsis(true);
        usage.sortOptions(false);
        Map<String, CommandLine.IHelpSectionRenderer> sections = usage.sectionMap();
        sections.put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, HelpSections::optionList);
        usage.sectionMap(sections);
        // The usage line first, then the one-line summary (the header, which bg's command list shows too).
        List<String> keys = new ArrayList<>(usage.sectionKeys());
        keys.removeAll(HEADER);
        keys.addAll(keys.indexOf(UsageMessageSpec.SECTION_KEY_SYNOPSIS) + 1, HEADER);
        usage.sectionKeys(keys);
        for (CommandLine sub : cl.getSubcommands().values()) {
            layout(sub);
        }
    }

    /** The options of {@code help}'s command, one section after the other, each under its heading. */
    static String optionList(Help help) {
        CommandSpec spec = help.commandSpec();
        Map<HelpSection, List<OptionSpec>> bySection = new EnumMap<>(HelpSection.class);
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                bySection
                        .computeIfAbsent(HelpSection.of(spec.name(), o), s -> new ArrayList<>())
                        .add(o);
            }
        }
        StringBuilder text = new StringBuilder();
        bySection.forEach((section, options) -> {
            text.append(String.format("%n%s:%n", section.heading()));
            // A fresh layout per section (a layout keeps its rows) with the columns of all options, so the sections
            // line up; no comparator keeps the order the command declares.
            text.append(help.optionListExcludingGroups(
                    options, help.createDefaultLayout(), null, help.createDefaultParamLabelRenderer()));
        });
        return text.toString();
    }
}
