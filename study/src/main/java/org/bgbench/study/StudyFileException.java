package org.bgbench.study;

/** A study file BG refuses: one line naming the file, the field's path and what is accepted. */
public final class StudyFileException extends IllegalArgumentException {
    private final String file;
    private final String field;
    private final String detail;

    public StudyFileException(String file, String field, String what) {
        super(file + ": " + (field.isEmpty() ? "" : field + ": ") + what);
        this.file = file;
        this.field = field;
        this.detail = (field.isEmpty() ? "" : field + ": ") + what;
    }

    /** The message without the file: the field's path and what is accepted. */
    public String detail() {
        return detail;
    }

    /** The file (or catalog entry) the mistake is in. */
    public String file() {
        return file;
    }

    /** The path of the bad field, e.g. {@code scales.tiny.duration}; empty for the whole file. */
    public String field() {
        return field;
    }
}
