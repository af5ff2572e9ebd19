package org.bgbench.study;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a store entry's {@code server:} strictly: a server name ({@code server: mariadb}) or a mapping of its name and
 * its script's options ({@code server: {name: cassandra, nodes: 3}}); an unknown server or option, a value the script
 * does not accept, or a server that does not serve the entry's store is refused in one line naming the field.
 */
final class ServerFields {
    /** The delays scripts/postgres-replica.sh accepts: 0, 500ms, 0.5s, 2s. */
    private static final Pattern DELAY = Pattern.compile("[0-9]+(\\.[0-9]+)?(ms|s)?");

    private ServerFields() {}

    /** The server of the store entry {@code s} (whose store is {@code store}). */
    static Study.Server parse(Fields s, String store) {
        ServerKind kind;
        Map<String, String> options = new LinkedHashMap<>();
        if (s.isText("server")) {
            kind = kind(s, "server", s.text("server"));
        } else {
            Fields f = s.object("server");
            kind = kind(f, "name", f.text("name"));
            Set<String> allowed = new LinkedHashSet<>(List.of("name"));
            kind.options().forEach(o -> allowed.add(o.name()));
            f.only(allowed);
            for (ServerKind.Option o : kind.options()) {
                if (f.has(o.name())) {
                    options.put(o.name(), value(f, o));
                }
            }
        }
        if (!kind.store().equals(store)) {
            throw s.refuse(
                    "server",
                    "the server " + kind.key() + " serves the store " + kind.store() + ", not '" + store
                            + "'; give store: " + kind.store() + " or another server (" + ServerKind.names() + ")");
        }
        return new Study.Server(kind, options);
    }

    private static ServerKind kind(Fields f, String field, String name) {
        return ServerKind.of(name)
                .orElseThrow(() -> f.refuse(field, "unknown server '" + name + "'; accepted: " + ServerKind.names()));
    }

    private static String value(Fields f, ServerKind.Option o) {
        String v = f.scalarText(o.name());
        if (!o.choices().isEmpty()) {
            if (!o.choices().contains(v)) {
                throw f.refuse(o.name(), "expected " + String.join(" or ", o.choices()) + ", got '" + v + "'");
            }
        } else if (o.isCount()) {
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < o.min() || n > o.max() || !f.isWholeNumber(o.name())) {
                throw f.refuse(
                        o.name(), "expected a whole number from " + o.min() + " to " + o.max() + ", got '" + v + "'");
            }
        } else if (!DELAY.matcher(v).matches()) {
            throw f.refuse(o.name(), "expected a delay such as 0, 500ms, 0.5s or 2s, got '" + v + "'");
        }
        return v;
    }
}
