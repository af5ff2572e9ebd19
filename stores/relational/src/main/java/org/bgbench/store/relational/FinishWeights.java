package org.bgbench.store.relational;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.FinishProgress;

/**
 * How far the end of a load got: each statement of {@link SqlDialect#afterLoad} weighs the rows of the table it
 * works on (an index build sorts them, a VACUUM or ANALYZE reads them), so the share done tracks the time spent well
 * enough for an estimate of the time left. Safe for the concurrent groups that report to it.
 */
final class FinishWeights {
    /** The table a statement works on: after ON, TABLE or ANALYZE. */
    private static final Pattern TABLE =
            Pattern.compile("\\b(?:ON|TABLE|ANALYZE)\\s+(?:TABLE\\s+)?(\\w+)", Pattern.CASE_INSENSITIVE);
    /** Reading a table costs less than sorting it into an index: measured on PostgreSQL, about a third. */
    private static final double READ_ONLY = 0.3;

    private final SocialGraph graph;
    private final int friendshipRows;
    private final FinishProgress progress;
    private final double total;
    private double done;

    FinishWeights(SocialGraph graph, int friendshipRows, List<List<String>> groups, FinishProgress progress) {
        this.graph = graph;
        this.friendshipRows = friendshipRows;
        this.progress = progress;
        double t = 0;
        for (List<String> g : groups) {
            for (String sql : g) {
                t += weight(sql);
            }
        }
        this.total = t;
    }

    /** Statement {@code sql} finished. */
    synchronized void done(String sql) {
        done += weight(sql);
        progress.done(
                total <= 0 ? 1 : Math.min(1, done / total), sql.length() > 60 ? sql.substring(0, 57) + "..." : sql);
    }

    /** Rows of the statement's table (at least 1), less for statements that only read them. */
    double weight(String sql) {
        Matcher m = TABLE.matcher(sql);
        long rows = m.find() ? rows(m.group(1).toLowerCase(Locale.ROOT)) : 1;
        String s = sql.trim().toUpperCase(Locale.ROOT);
        boolean reads = s.startsWith("VACUUM") || s.startsWith("ANALYZE");
        return Math.max(1, rows) * (reads ? READ_ONLY : 1);
    }

    private long rows(String table) {
        long friendships = graph.totalFriendships() * friendshipRows;
        return switch (table) {
            case RelationalSchema.MEMBERS -> graph.members();
            case RelationalSchema.FRIENDSHIP -> friendships + graph.totalPendingInvitations();
            case RelationalSchema.FRIENDS -> friendships;
            case RelationalSchema.PENDING_TABLE -> graph.totalPendingInvitations();
            case RelationalSchema.RESOURCES -> graph.totalResources() + graph.totalPageResources();
            case RelationalSchema.MANIPULATION -> graph.totalInitialComments();
            case RelationalSchema.FOLLOWS -> graph.totalFollows();
            case RelationalSchema.PAGES -> graph.pages();
            default -> 1;
        };
    }
}
