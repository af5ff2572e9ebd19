package org.bgbench.cli;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.study.Scale;
import org.bgbench.study.Study;
import org.bgbench.study.StudyCatalog;
import org.bgbench.study.StudyFileException;
import org.bgbench.study.StudyPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code bg study}: the papers' experiments as data, each one command (docs/studies.md). */
@Command(
        name = "study",
        mixinStandardHelpOptions = true,
        header = "List, show and run the papers' studies, each from one study file.",
        description =
                "A study reruns a paper's figure or table: its stores, graph, mixes and T grid at a scale (tiny, "
                        + "small or paper), with the paper's published values and findings beside it. 'bg study list' "
                        + "prints the catalog, 'bg study show NAME' the plan, 'bg study run NAME' measures it (docs/studies.md).",
        subcommands = {StudyListCommand.class, StudyShowCommand.class, StudyRunCommand.class})
final class StudyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine()
                .getErr()
                .println("bg: error: give a subcommand: list, show NAME or run NAME (see 'bg " + "study --help')");
        return Bg.BAD_INPUT;
    }

    /** The study a command line names, a refusal of the file becoming one line of bad input. */
    static Study resolve(String nameOrFile) {
        try {
            return StudyCatalog.resolve(nameOrFile);
        } catch (StudyFileException e) {
            throw refusal(e);
        }
    }

    static InvalidParameterException refusal(StudyFileException e) {
        return new InvalidParameterException(e.file(), e.detail());
    }

    /** The scale {@code --scale} names. */
    static Scale scale(String key) {
        return Scale.of(key.trim().toLowerCase(Locale.ROOT))
                .orElseThrow(() ->
                        new InvalidParameterException("--scale", "expected " + Scale.names() + ", got '" + key + "'"));
    }

    /** The plan of {@code study} at {@code scale} over the stores named (empty: all). */
    static StudyPlan plan(Study study, Scale scale, List<String> stores) {
        try {
            return StudyPlan.of(study, scale, stores);
        } catch (StudyFileException e) {
            throw new InvalidParameterException("--store", e.detail().replaceFirst("^stores: ", ""));
        }
    }

    /** A duration in words for a plan's time: 45s, 12m 30s, 2h 5m. */
    static String time(java.time.Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m" + (s % 60 == 0 ? "" : " " + s % 60 + "s");
        }
        return s / 3600 + "h" + (s % 3600 / 60 == 0 ? "" : " " + s % 3600 / 60 + "m");
    }
}
