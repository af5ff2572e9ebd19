package org.bgbench.runner.confine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The files a database URL makes a driver open, read by the part of the URL that does not depend on the driver: the
 * path of {@code jdbc:sqlite:}, {@code jdbc:h2:}, {@code jdbc:derby:} and {@code jdbc:hsqldb:} (kept under the
 * scope's root, in-memory databases left as they are), and the network URLs of PostgreSQL, MariaDB/MySQL,
 * Derby, H2, HSQLDB and MongoDB (no file of BG's host). Their parameters ({@code ?k=v&…}, {@code ;k=v}) must be plain
 * words or numbers under names that do not name files or classes: drivers take certificates, key stores, log files,
 * socket factories and init scripts there. A URL of any other form is refused unless the scope allows code.
 */
final class DatabaseUrls {
    /** Network URLs: the driver connects to a host and opens no file of BG's host for the URL itself. */
    private static final Pattern NETWORK = Pattern.compile("(jdbc:(postgresql|mariadb|mysql|derby|h2:tcp|h2:ssl"
            + "|hsqldb:hsqls?)|mongodb(\\+srv)?)://[A-Za-z0-9_.,:\\[\\]@%-]*(/[A-Za-z0-9_.$-]*)?");
    /** A parameter value a driver cannot take for a file or a class: a word or a number. */
    private static final Pattern PLAIN_VALUE = Pattern.compile("[A-Za-z0-9_+-]*");
    /** Parameter names under which drivers take files, classes or code. */
    private static final Pattern RISKY_NAME = Pattern.compile("(?i).*(file|factory|class|path|dir|cert|key|plugin"
            + "|callback|verifier|lib|init|script|trust|store|jaas|krb|gss|sspi|log|url|jar|resource|alias).*");

    private final SettingsConfinement confinement;

    DatabaseUrls(SettingsConfinement confinement) {
        this.confinement = confinement;
    }

    /**
     * {@code value} with the file of every URL in it under the scope's root.
     *
     * @param list the value is comma-separated URLs
     * @throws IllegalArgumentException naming {@code key} when a URL names a file elsewhere, or (unless the scope
     *     allows code) a URL whose files BG cannot tell
     */
    String confine(String key, String value, boolean list) {
        if (!list) {
            return one(key, value.trim());
        }
        List<String> out = new ArrayList<>();
        for (String u : value.split(",")) {
            if (!u.isBlank()) {
                out.add(one(key, u.trim()));
            }
        }
        return String.join(",", out);
    }

    private String one(String key, String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        String params = query < 0 ? "" : url.substring(query);
        if (lower.startsWith("jdbc:sqlite:")) {
            checkParams(key, params, "[?&]");
            String file = base.substring("jdbc:sqlite:".length());
            if (file.isEmpty() || file.equals(":memory:") || file.startsWith("file::memory:")) {
                return url;
            }
            if (file.startsWith(":")) {
                return undetermined(key, url);
            }
            String prefix = file.startsWith("file:") ? "file:" : "";
            return "jdbc:sqlite:" + prefix + confinement.under(key, file.substring(prefix.length())) + params;
        }
        for (String engine : List.of("h2", "derby", "hsqldb")) {
            if (lower.startsWith("jdbc:" + engine + ":")
                    && !NETWORK.matcher(base.split(";", 2)[0]).matches()) {
                return embedded(key, url, engine);
            }
        }
        String main = base.split(";", 2)[0];
        if (NETWORK.matcher(main).matches()) {
            checkParams(key, params, "[?&]");
            checkParams(key, base.substring(main.length()), ";");
            return url;
        }
        return undetermined(key, url);
    }

    /** An H2, Derby or HSQLDB URL of a database in memory or in a file: the file under the scope's root. */
    private String embedded(String key, String url, String engine) {
        String rest = url.substring(("jdbc:" + engine + ":").length());
        int semi = rest.indexOf(';');
        String where = semi < 0 ? rest : rest.substring(0, semi);
        String attributes = semi < 0 ? "" : rest.substring(semi);
        checkParams(key, attributes, ";");
        String kind = switch (engine) {
            case "h2", "hsqldb" -> "mem:";
            default -> "memory:";
        };
        if (where.startsWith(kind)) {
            return url;
        }
        String prefix = where.startsWith("file:") ? "file:" : where.startsWith("directory:") ? "directory:" : "";
        String path = where.substring(prefix.length());
        if (path.isEmpty() || (prefix.isEmpty() && path.matches("[A-Za-z]+:.*"))) {
            return undetermined(key, url);
        }
        return "jdbc:" + engine + ":" + prefix + confinement.under(key, path) + attributes;
    }

    /** Each {@code name=value} of {@code params} (split at {@code separators}) plain, or refused. */
    private void checkParams(String key, String params, String separators) {
        if (confinement.allowsCode() || params.isEmpty()) {
            return;
        }
        for (String p : params.split(separators)) {
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.indexOf('=');
            String name = eq < 0 ? p : p.substring(0, eq);
            String value = eq < 0 ? "" : p.substring(eq + 1);
            if (RISKY_NAME.matcher(name).matches()
                    || !PLAIN_VALUE.matcher(value).matches()) {
                throw new IllegalArgumentException(key + ": the URL's parameter " + name + " may name a file or a "
                        + "class for the driver (only plain words and numbers pass, under names that do not name "
                        + "files or classes); " + confinement.scope().codeHint());
            }
        }
    }

    private String undetermined(String key, String url) {
        if (confinement.allowsCode()) {
            return url;
        }
        throw new IllegalArgumentException(key + ": BG cannot tell which files the driver of this URL opens (it reads "
                + "jdbc:sqlite:FILE, jdbc:h2:, jdbc:derby:, jdbc:hsqldb: files and the network URLs of PostgreSQL, "
                + "MariaDB/MySQL and MongoDB); " + confinement.scope().codeHint());
    }
}
