package org.bgbench.study;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The studies BG ships ({@code studies/*.yaml} resources, listed in {@code studies/catalog.txt} in the order
 * {@code bg study list} prints them) and user files named by path.
 */
public final class StudyCatalog {
    private static final String DIR = "studies/";

    private StudyCatalog() {}

    /** The names of the shipped studies, in catalog order. */
    public static List<String> names() {
        List<String> out = new ArrayList<>();
        for (String line : resource("catalog.txt").lines().toList()) {
            String n = line.strip();
            if (!n.isEmpty() && !n.startsWith("#")) {
                out.add(n);
            }
        }
        return out;
    }

    /** The shipped study {@code name}. */
    public static Study load(String name) {
        return StudyParser.parse(DIR + name + ".yaml", resource(name + ".yaml"));
    }

    /** Every shipped study. */
    public static List<Study> all() {
        return names().stream().map(StudyCatalog::load).toList();
    }

    /**
     * The study {@code nameOrFile} names: a file when it has a path separator or ends in {@code .yaml}/{@code .yml},
     * else a catalog name; either missing is refused in one line saying what is accepted.
     */
    public static Study resolve(String nameOrFile) {
        boolean file = nameOrFile.contains("/") || nameOrFile.endsWith(".yaml") || nameOrFile.endsWith(".yml");
        if (file) {
            Path p = Path.of(nameOrFile);
            try {
                return StudyParser.parse(p.toString(), Files.readString(p, StandardCharsets.UTF_8));
            } catch (NoSuchFileException e) {
                throw new StudyFileException(p.toString(), "", "no such study file");
            } catch (IOException e) {
                throw new StudyFileException(p.toString(), "", "cannot be read (" + e.getMessage() + ")");
            }
        }
        if (!names().contains(nameOrFile)) {
            throw new StudyFileException(
                    nameOrFile,
                    "",
                    "no such study in the catalog (" + String.join(", ", names())
                            + "); give one of those or a study file's path");
        }
        return load(nameOrFile);
    }

    private static String resource(String name) {
        try (InputStream in = StudyCatalog.class.getClassLoader().getResourceAsStream(DIR + name)) {
            if (in == null) {
                throw new IllegalStateException("BG's build lacks the resource " + DIR + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
