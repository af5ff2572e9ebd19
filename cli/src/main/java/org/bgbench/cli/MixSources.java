package org.bgbench.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.runner.Parameters;
import org.bgbench.workload.WorkloadFile;
import org.bgbench.workload.WorkloadParameters;

/**
 * Where a run's mix comes from when property files give its keys ({@code -P FILE}, {@code bg run --workload FILE}).
 * Files that leave the mix unset while nothing else names one are refused rather than run as the default mix, which
 * the result would carry under the file's name; a mix whose frequencies all come from one file is labelled with that
 * file's name ({@value WorkloadParameters#MIX_NAME}), so results say which mix ran.
 */
final class MixSources {
    private MixSources() {}

    /**
     * Checks the mix of {@code params}, read from the {@code -P} {@code files} and a workload file ({@code workload},
     * or null), and labels it with the file that set its frequencies.
     *
     * @throws InvalidParameterException naming {@code -P} when the files set no frequency and nothing names a mix
     */
    static void check(Parameters params, List<Path> files, Path workload) {
        Map<String, String> all = params.asMap();
        List<String> frequencies = WorkloadParameters.frequencyKeys(all);
        if (frequencies.isEmpty()) {
            if (!files.isEmpty() && !WorkloadParameters.namesMix(all)) {
                String which = files.size() == 1
                        ? files.get(0) + " sets no"
                        : "none of " + files.stream().map(Path::toString).collect(Collectors.joining(", "))
                                + " sets an";
                throw new InvalidParameterException(
                        "-P",
                        which + " action frequency (such as "
                                + "ViewProfileAction=0.35; 'bg keys' lists them) and no mix is named; give --workload NAME "
                                + "(or -p mix=NAME) to run a named mix with these keys");
            }
            return;
        }
        List<String> fileNames = new ArrayList<>();
        files.forEach(f -> fileNames.add(f.toString()));
        if (workload != null) {
            fileNames.add(workload.toString());
        }
        Set<String> origins = frequencies.stream().map(params::origin).collect(Collectors.toSet());
        String from = origins.size() == 1 ? origins.iterator().next() : null;
        if (from != null && fileNames.contains(from) && !params.has(WorkloadParameters.MIX_NAME)) {
            params.put(WorkloadParameters.MIX_NAME, WorkloadFile.label(Path.of(from)), from);
        }
    }
}
