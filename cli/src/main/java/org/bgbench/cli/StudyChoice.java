package org.bgbench.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The study a {@code bg study} subcommand acts on and its scale: the same argument and option for show and run. */
final class StudyChoice {
    @Parameters(index = "0", paramLabel = "NAME|FILE", description = "A catalog study or a study file.")
    String study;

    @Option(
            names = "--scale",
            paramLabel = "SCALE",
            defaultValue = "tiny",
            description = "tiny (minutes), small (this machine, under an hour) or paper (the paper's sizes) "
                    + "(default ${DEFAULT-VALUE}).")
    String scale;
}
