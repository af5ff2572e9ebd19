package org.bgbench.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.relational.BatchInsertSink;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.RowSink;
import org.bgbench.store.relational.SqlDialect;

/**
 * A dialect described by a few properties: the built-in {@code generic} dialect (every key at its default, portable
 * SQL and JDBC batches) or a dialect file a user writes for an engine BG has no binding for. The keys, their
 * defaults and meaning are listed in {@link #KEYS} and stores/jdbc/README.md.
 */
final class FileDialect implements SqlDialect {
    /** Every key a dialect file may hold, with its default. */
    static final Map<String, String> KEYS;

    static {
        Map<String, String> k = new TreeMap<>();
        k.put("name", "generic SQL");
        k.put("binary-type", "BLOB");
        k.put("big-id-type", "BIGINT");
        k.put("meta-key-type", "VARCHAR(191)");
        k.put("text-type", "");
        k.put("keys-at-create", "true");
        k.put("table-options", "");
        k.put("table-exists-query", "SELECT 1 FROM information_schema.tables WHERE LOWER(table_name) = LOWER(?)");
        k.put("after-load", "");
        k.put("single-writer", "false");
        k.put("lateral-joins", "false");
        k.put("limit", "limit");
        k.put("drop-if-exists", "true");
        k.put("init", "");
        KEYS = Collections.unmodifiableMap(k);
    }

    private final Map<String, String> v;
    private final SqlRewriter rewriter;

    /** The generic dialect, or a dialect of properties that were not read from a file. */
    FileDialect(Properties props, String source) {
        this(props, source, List.of());
    }

    /**
     * Errors name the file, the line and what is wrong, never the file's text: the path may name a file that is not a
     * dialect file at all, whose content must not be shown.
     *
     * @param props  the file's properties (empty for the generic dialect)
     * @param source named in errors: the file's path
     * @param lines  the file's lines, to say which line is wrong (empty: no line numbers)
     * @throws InvalidParameterException naming {@code jdbc.dialect} for an unknown key or a bad value
     */
    FileDialect(Properties props, String source, List<String> lines) {
        Map<String, String> values = new TreeMap<>(KEYS);
        for (String key : new TreeSet<>(props.stringPropertyNames())) {
            if (!KEYS.containsKey(key)) {
                throw bad(
                        source,
                        at(lines, key) + "holds a key that is not a dialect key (its text is not shown); "
                                + "a dialect file takes " + String.join(", ", KEYS.keySet()));
            }
            values.put(key, props.getProperty(key).trim());
        }
        this.v = values;
        for (String key : Set.of("keys-at-create", "single-writer", "lateral-joins", "drop-if-exists")) {
            String b = v.get(key).toLowerCase(Locale.ROOT);
            if (!b.equals("true") && !b.equals("false")) {
                throw bad(source, at(lines, key) + key + " must be true or false");
            }
        }
        for (String key : Set.of("name", "binary-type", "big-id-type", "meta-key-type", "table-exists-query")) {
            if (v.get(key).isEmpty()) {
                throw bad(source, at(lines, key) + key + " must not be empty");
            }
        }
        if (!v.get("table-exists-query").contains("?")) {
            throw bad(
                    source,
                    at(lines, "table-exists-query")
                            + "table-exists-query must take the table name as its one parameter (?)");
        }
        SqlRewriter.Limit limit = SqlRewriter.Limit.of(v.get("limit"));
        if (limit == null) {
            throw bad(source, at(lines, "limit") + "limit must be one of limit, fetch-first, offset-fetch");
        }
        this.rewriter = new SqlRewriter(
                limit, v.get("text-type").isEmpty() ? null : v.get("text-type"), flag("drop-if-exists"));
    }

    /** "line N: " for the first line of {@code lines} that sets {@code key}, or nothing when none does. */
    static String at(List<String> lines, String key) {
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).stripLeading();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith("!")) {
                continue;
            }
            int end = 0;
            while (end < l.length() && "=: \t\f".indexOf(l.charAt(end)) < 0) {
                end += l.charAt(end) == '\\' ? 2 : 1;
            }
            if (l.substring(0, Math.min(end, l.length())).replace("\\", "").equals(key)) {
                return "line " + (i + 1) + ": ";
            }
        }
        return "";
    }

    private static InvalidParameterException bad(String source, String what) {
        return new InvalidParameterException(JdbcStoreProvider.DIALECT, "dialect file " + source + ": " + what);
    }

    private boolean flag(String key) {
        return Boolean.parseBoolean(v.get(key).toLowerCase(Locale.ROOT));
    }

    private static List<String> statements(String value) {
        List<String> out = new ArrayList<>();
        for (String s : value.split(";")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return out;
    }

    SqlRewriter rewriter() {
        return rewriter;
    }

    /** Statements run on every new connection. */
    List<String> init() {
        return statements(v.get("init"));
    }

    @Override
    public String name() {
        return v.get("name");
    }

    @Override
    public String binaryType() {
        return v.get("binary-type");
    }

    @Override
    public String bigIdType() {
        return v.get("big-id-type");
    }

    @Override
    public boolean keysAtCreate() {
        return flag("keys-at-create");
    }

    @Override
    public String metaKeyType() {
        return v.get("meta-key-type");
    }

    @Override
    public String friendshipTableOptions() {
        String o = v.get("table-options");
        return o.isEmpty() ? "" : " " + o;
    }

    /**
     * Standard SQL: the primary keys when they were not declared at CREATE, BG's secondary indexes, then the file's
     * {@code after-load} statements (statistics), all in order on one connection.
     */
    @Override
    public List<List<String>> afterLoad(RelationalSchema schema) {
        List<String> all = new ArrayList<>();
        if (!keysAtCreate()) {
            all.add("ALTER TABLE members ADD PRIMARY KEY (userid)");
            if (schema.physical().twoTables()) {
                all.add("ALTER TABLE friends ADD PRIMARY KEY (frdid1, frdid2)");
                all.add("ALTER TABLE pending ADD PRIMARY KEY (inviterid, inviteeid)");
            } else {
                all.add("ALTER TABLE friendship ADD PRIMARY KEY (inviterid, inviteeid)");
            }
            all.add("ALTER TABLE resources ADD PRIMARY KEY (rid)");
            all.add("ALTER TABLE manipulation ADD PRIMARY KEY (mid)");
            all.add("ALTER TABLE pages ADD PRIMARY KEY (pageid)");
            all.add("ALTER TABLE follows ADD PRIMARY KEY (userid, pageid)");
        }
        all.addAll(schema.friendshipIndexes());
        all.add(RelationalSchema.RESOURCES_WALL_INDEX);
        all.add(RelationalSchema.MANIPULATION_RID_INDEX);
        all.addAll(schema.feedIndexes());
        all.addAll(statements(v.get("after-load")));
        return List.of(all);
    }

    @Override
    public String tableExistsQuery() {
        return v.get("table-exists-query");
    }

    @Override
    public boolean singleWriter() {
        return flag("single-writer");
    }

    @Override
    public boolean lateralJoins() {
        return flag("lateral-joins");
    }

    @Override
    public RowSink openSink(Connection c, RelationalSchema schema) throws SQLException {
        return new BatchInsertSink(c, schema);
    }
}
