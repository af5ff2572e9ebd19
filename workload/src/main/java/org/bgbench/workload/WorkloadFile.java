package org.bgbench.workload;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.model.InvalidParameterException;

/**
 * A workload file as USC BG ships them ({@code workloads/HighUpdateActions}, given to {@code bg run --workload FILE}):
 * its keys, read by {@link PropertyFiles}, and the name the mix its frequencies set is labelled with in results, the
 * file's own name. A workload file must say which mix to run: a file that sets no frequency (an empty file, a line of
 * garbage, only other keys) is refused rather than run as the default mix under the file's name.
 *
 * @param path the file as given
 * @param keys its keys and values, in file order
 */
public record WorkloadFile(Path path, Map<String, String> keys) {
    public WorkloadFile {
        keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
    }

    /**
     * Reads {@code file} and checks that it sets a mix, by frequency keys or by a mix's name ({@code mix=high}).
     *
     * @param option the option that named the file, for the messages
     * @throws InvalidParameterException naming {@code option} when the file is missing or unreadable, or sets no mix
     */
    public static WorkloadFile read(String option, Path file) {
        Map<String, String> keys;
        try {
            keys = PropertyFiles.read(file);
        } catch (InvalidParameterException e) {
            throw new InvalidParameterException(option, e.getMessage());
        }
        WorkloadFile w = new WorkloadFile(file, keys);
        if (w.frequencyKeys().isEmpty() && !WorkloadParameters.namesMix(keys)) {
            throw new InvalidParameterException(
                    option,
                    file + (keys.isEmpty() ? " is empty: it" : "")
                            + " sets no action frequency (such as ViewProfileAction=0.35; 'bg keys' lists them) and names no "
                            + "mix (mix=high), so it does not say what to run");
        }
        return w;
    }

    /** The frequency keys it sets (those of implemented actions and sessions), in no particular order. */
    public List<String> frequencyKeys() {
        return WorkloadParameters.frequencyKeys(keys);
    }

    /** The name results give the mix its frequencies set: the file's name ({@code HighUpdateActions}). */
    public String label() {
        return label(path);
    }

    /** The label of a mix set by the file at {@code path}: its name. */
    public static String label(Path path) {
        Path name = path.getFileName();
        return name == null ? path.toString() : name.toString();
    }
}
