package org.bgbench.store.jdbc;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The few rewrites of BG's SQL text a dialect file can ask for, applied to every statement the store sends: the row
 * limit's syntax, the type of BG's {@code TEXT} columns, and {@code DROP TABLE IF EXISTS} for engines without it.
 *
 * @param limit        how {@code LIMIT ?} is written
 * @param textType     replaces the {@code TEXT} column type in CREATE TABLE statements; null keeps it
 * @param dropIfExists whether the engine takes {@code DROP TABLE IF EXISTS}; when not, it becomes {@code DROP TABLE}
 *                     and the error of a missing table is ignored ({@link #ignoresFailure(String)})
 */
record SqlRewriter(Limit limit, String textType, boolean dropIfExists) {
    static final SqlRewriter NONE = new SqlRewriter(Limit.LIMIT, null, true);

    private static final Pattern LIMIT = Pattern.compile("\\bLIMIT \\?");
    private static final Pattern TEXT = Pattern.compile("\\bTEXT\\b");
    private static final Pattern DROP = Pattern.compile("^DROP TABLE IF EXISTS ");

    enum Limit {
        /** {@code LIMIT ?} (PostgreSQL, MySQL, SQLite, H2, HSQLDB, CockroachDB…). */
        LIMIT("limit"),
        /** {@code FETCH FIRST ? ROWS ONLY} (SQL:2008: Oracle 12c+, Db2, Derby…). */
        FETCH_FIRST("fetch-first"),
        /** {@code OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY} (SQL Server 2012+, which needs the OFFSET). */
        OFFSET_FETCH("offset-fetch");

        final String setting;

        Limit(String setting) {
            this.setting = setting;
        }

        static Limit of(String s) {
            for (Limit l : values()) {
                if (l.setting.equals(s.trim().toLowerCase(Locale.ROOT))) {
                    return l;
                }
            }
            return null;
        }
    }

    boolean identity() {
        return limit == Limit.LIMIT && textType == null && dropIfExists;
    }

    String rewrite(String sql) {
        if (identity() || sql == null) {
            return sql;
        }
        String s = sql;
        switch (limit) {
            case FETCH_FIRST -> s = LIMIT.matcher(s).replaceAll("FETCH FIRST ? ROWS ONLY");
            case OFFSET_FETCH -> s = LIMIT.matcher(s).replaceAll("OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY");
            default -> {}
        }
        if (textType != null && s.startsWith("CREATE TABLE ")) {
            s = TEXT.matcher(s).replaceAll(Matcher.quoteReplacement(textType));
        }
        if (!dropIfExists) {
            s = DROP.matcher(s).replaceFirst("DROP TABLE ");
        }
        return s;
    }

    /** Whether a failure of {@code original} (the text before rewriting) is expected and ignored. */
    boolean ignoresFailure(String original) {
        return !dropIfExists && original != null && DROP.matcher(original).find();
    }
}
