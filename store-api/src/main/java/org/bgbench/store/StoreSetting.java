package org.bgbench.store;

import java.util.List;
import java.util.Locale;

/**
 * One setting of a store, passed as {@code -p key=value}, with the kind of thing its value names. The kind tells a
 * worker (and the deck) which settings reach a file, a directory or code on BG's host, so that one rule can confine
 * or refuse every such setting of every store without a list of keys.
 *
 * @param key          the property key
 * @param defaultValue value used when the key is absent (null: none)
 * @param description  what it does and what values are accepted
 * @param kind         what the value names
 * @param names        {@link Kind#FILE_OR_NAME} only: the values that are names, not files (compared ignoring case)
 */
public record StoreSetting(String key, String defaultValue, String description, Kind kind, List<String> names) {

    /** What a setting's value names on BG's host. */
    public enum Kind {
        /** A value the store uses as it is: a number, a word, a host name. */
        PLAIN,
        /** A file on BG's host, read or written. */
        FILE,
        /** A directory on BG's host, read or written. */
        DIRECTORY,
        /** One of the setting's {@link #names()}, else the path of a file on BG's host. */
        FILE_OR_NAME,
        /** A database URL (JDBC or a driver's connection string) that a driver may resolve to a file. */
        DATABASE_URL,
        /** Comma-separated database URLs, each as {@link #DATABASE_URL}. */
        DATABASE_URLS,
        /** Jar files whose classes BG loads. */
        JAR,
        /** Maven coordinates of jars BG downloads and loads. */
        MAVEN_ARTIFACT,
        /** A repository BG downloads code from. */
        CODE_REPOSITORY,
        /** A Java class BG loads by name. */
        CLASS_NAME,
        /** A command BG runs. */
        COMMAND
    }

    public StoreSetting {
        names = names == null
                ? List.of()
                : names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
        if (kind == null) {
            kind = Kind.PLAIN;
        }
    }

    /** A {@link Kind#PLAIN} setting. */
    public StoreSetting(String key, String defaultValue, String description) {
        this(key, defaultValue, description, Kind.PLAIN, List.of());
    }

    /** A setting of {@code kind} (not {@link Kind#FILE_OR_NAME}, which needs its names). */
    public static StoreSetting of(Kind kind, String key, String defaultValue, String description) {
        return new StoreSetting(key, defaultValue, description, kind, List.of());
    }

    /** A setting whose value is a file or a directory on BG's host (as {@link Kind#FILE}: both are confined alike). */
    public static StoreSetting path(String key, String defaultValue, String description) {
        return of(Kind.FILE, key, defaultValue, description);
    }

    /** A {@link Kind#FILE_OR_NAME} setting: one of {@code names}, else a file. */
    public static StoreSetting fileOrName(String key, String defaultValue, String description, String... names) {
        return new StoreSetting(key, defaultValue, description, Kind.FILE_OR_NAME, List.of(names));
    }

    /** The value names a file or a directory on BG's host ({@code value} decides for {@link Kind#FILE_OR_NAME}). */
    public boolean namesFile(String value) {
        return switch (kind) {
            case FILE, DIRECTORY -> true;
            case FILE_OR_NAME ->
                value != null
                        && !value.isBlank()
                        && !names.contains(value.trim().toLowerCase(Locale.ROOT));
            default -> false;
        };
    }

    /** The setting may name a file or a directory on BG's host. */
    public boolean namesFile() {
        return kind == Kind.FILE || kind == Kind.DIRECTORY || kind == Kind.FILE_OR_NAME;
    }

    /** The value is a database URL (or a list of them) that a driver may resolve to a file on BG's host. */
    public boolean namesDatabase() {
        return kind == Kind.DATABASE_URL || kind == Kind.DATABASE_URLS;
    }

    /** The value makes BG load or run code: jars, Maven coordinates, a repository, a class, a command. */
    public boolean loadsCode() {
        return kind == Kind.JAR
                || kind == Kind.MAVEN_ARTIFACT
                || kind == Kind.CODE_REPOSITORY
                || kind == Kind.COMMAND
                || kind == Kind.CLASS_NAME;
    }
}
