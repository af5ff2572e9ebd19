package org.bgbench.workload;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.bgbench.model.InvalidParameterException;

/**
 * Reads USC BG workload and parameter files: {@link Properties} syntax ({@code key=value}, {@code key: value} or
 * {@code key value}; {@code #} and {@code !} comments; backslash escapes and line continuations), read as UTF-8 (ASCII
 * files, as USC ships, read the same), keeping the order of first appearance. A key given twice keeps its last value,
 * as in {@link Properties}. Unlike {@link Properties}, trailing blanks of values are removed (USC files often carry
 * them, and no BG value needs them).
 */
public final class PropertyFiles {
    private PropertyFiles() {}

    /**
     * The file's keys and values in file order (an unmodifiable map).
     *
     * @throws InvalidParameterException naming the file when it is missing, not a regular file, unreadable or
     *                                   malformed (e.g. a bad {@code \\u} escape)
     */
    public static Map<String, String> read(Path file) {
        Map<String, String> out = new LinkedHashMap<>();
        @SuppressWarnings("serial")
        Properties ordered = new Properties() {
            @Override
            public synchronized Object put(Object key, Object value) {
                out.put((String) key, ((String) value).stripTrailing());
                return super.put(key, value);
            }
        };
        if (Files.isDirectory(file)) {
            throw new InvalidParameterException(file.toString(), "is a directory, not a property file");
        }
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            ordered.load(r);
        } catch (NoSuchFileException e) {
            throw new InvalidParameterException(
                    file.toString(), "no such property file (looked in " + file.toAbsolutePath() + ")");
        } catch (IOException e) {
            throw new InvalidParameterException(file.toString(), "cannot read the property file: " + e);
        } catch (IllegalArgumentException e) {
            throw new InvalidParameterException(file.toString(), "malformed property file: " + e.getMessage());
        }
        return Collections.unmodifiableMap(out);
    }
}
