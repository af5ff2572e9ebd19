package org.bgbench.store.relational;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.bgbench.model.Action;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;

/**
 * Where a SQL store's read actions go: the JDBC URLs of its read replicas ({@code <prefix>.read-urls}, session i reads
 * from replica i mod n) and which read actions are routed there ({@code <prefix>.read-actions}). Everything else (the
 * writes, every statement of a write's transaction, loads, index builds, counts, images, state marks and the sessions
 * of BG's own checks) stays on the primary. No URL means no replica: every read on the primary.
 *
 * @param urlsKey    the setting the URLs came from, for messages ({@code postgres.read-urls})
 * @param urls       the replicas' JDBC URLs, in the order given; empty for none
 * @param actions    the read actions sent to a replica; empty with {@code none}
 */
public record ReadReplicas(String urlsKey, List<String> urls, Set<Action> actions) {
    /** The read actions a relational session can route: VP, LF, VFR, VTR, VCR, VNF. */
    public static final Set<Action> READS =
            EnumSet.copyOf(Stream.of(Action.values()).filter(a -> !a.isWrite()).toList());

    public static final ReadReplicas NONE = new ReadReplicas("read-urls", List.of(), EnumSet.noneOf(Action.class));

    public ReadReplicas {
        urls = List.copyOf(urls);
        actions = actions.isEmpty() ? EnumSet.noneOf(Action.class) : EnumSet.copyOf(actions);
    }

    /** Whether any read goes to a replica. */
    public boolean routes() {
        return !urls.isEmpty() && !actions.isEmpty();
    }

    /** Whether {@code action} goes to a replica. */
    public boolean routes(Action action) {
        return !urls.isEmpty() && actions.contains(action);
    }

    /** The two settings of a store whose keys start with {@code prefix} (e.g. {@code postgres}). */
    public static List<StoreSetting> settings(String prefix, String what) {
        return List.of(
                // No default values: a run without replicas has no such key, and its settings stay what they were.
                StoreSetting.of(
                        StoreSetting.Kind.DATABASE_URLS,
                        prefix + ".read-urls",
                        null,
                        "comma-separated JDBC URLs of " + what + " read replicas (same user and password as the "
                                + "primary); session i reads from replica i mod n; default none (every read on the "
                                + "primary)"),
                new StoreSetting(
                        prefix + ".read-actions",
                        null,
                        "with read-urls: the read actions sent to a replica, all (default: VP, LF, VFR, VTR, VCR, VNF), "
                                + "none, or a comma list of those codes; writes, loads, counts, images, state marks "
                                + "and BG's checks always use the primary"));
    }

    /**
     * Reads {@code <prefix>.read-urls} and {@code <prefix>.read-actions}; a bad value fails with one line naming the key
     * and what it accepts.
     *
     * @param scheme the JDBC URL prefix every URL must start with, e.g. {@code jdbc:postgresql://}
     */
    public static ReadReplicas from(StoreSettings s, String prefix, String scheme) {
        String urlsKey = prefix + ".read-urls";
        String actionsKey = prefix + ".read-actions";
        List<String> urls = new ArrayList<>();
        String given = s.get(urlsKey);
        if (given != null && !given.isBlank()) {
            for (String u : given.split(",", -1)) {
                String url = u.trim();
                if (!url.startsWith(scheme)) {
                    throw new InvalidParameterException(
                            urlsKey,
                            "expected comma-separated JDBC URLs starting with " + scheme + ", got '"
                                    + (url.isEmpty() ? given : url) + "'");
                }
                urls.add(url);
            }
        }
        String routed = s.get(actionsKey);
        if (urls.isEmpty() && routed != null && !routed.isBlank()) {
            throw new InvalidParameterException(
                    actionsKey,
                    "applies only with " + urlsKey + " (the replicas to read " + "from), got '" + routed
                            + "' without it");
        }
        if (urls.isEmpty()) {
            return NONE;
        }
        return new ReadReplicas(urlsKey, urls, parseActions(actionsKey, routed));
    }

    /** {@code all} (or absent), {@code none}, or a comma list of read action codes. */
    static Set<Action> parseActions(String key, String value) {
        if (value == null || value.isBlank() || value.trim().equalsIgnoreCase("all")) {
            return EnumSet.copyOf(READS);
        }
        if (value.trim().equalsIgnoreCase("none")) {
            return EnumSet.noneOf(Action.class);
        }
        Set<Action> out = EnumSet.noneOf(Action.class);
        for (String part : value.split(",", -1)) {
            String code = part.trim().toUpperCase(Locale.ROOT);
            Action a = READS.stream()
                    .filter(r -> r.code().equals(code))
                    .findFirst()
                    .orElse(null);
            if (a == null) {
                throw new InvalidParameterException(
                        key,
                        "expected all, none or a comma list of read actions "
                                + READS.stream().map(Action::code).collect(Collectors.joining(", ")) + ", got '"
                                + value.trim() + "'");
            }
            out.add(a);
        }
        return out;
    }

    /** The replica URL of session {@code session}: {@code session mod n}. */
    public int replicaOf(int session) {
        return Math.floorMod(session, urls.size());
    }

    /** For summaries: {@code 1 replica, VP LF VFR VTR VCR VNF}. */
    public String describe() {
        if (!routes()) {
            return "reads on the primary";
        }
        return urls.size() + (urls.size() == 1 ? " replica" : " replicas") + " for "
                + actions.stream().map(Action::code).collect(Collectors.joining(" "));
    }
}
