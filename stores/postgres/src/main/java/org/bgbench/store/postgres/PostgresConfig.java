package org.bgbench.store.postgres;

import java.time.Duration;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.relational.PhysicalDesign;
import org.bgbench.store.relational.ReadReplicas;

/**
 * Settings of a postgres store: which server and how many pooled connections, which designs, the timeout and the read
 * replicas. Built with {@link #embedded()} or {@link #at(String)} and the {@link Builder}'s named setters.
 *
 * @param server   where to connect (or an embedded server) and the pool's size
 * @param designs  the schema's designs: friendship rows, View Profile's counts, feed, physical design
 * @param timeout  how long a session's statement may run before the server cancels it; a server that does not answer
 *                 at all is given up one second later (pgJDBC's read timeout), and connecting and borrowing a pooled
 *                 connection wait as long (whole seconds, at least 1 s)
 * @param replicas read replicas and the read actions sent to them
 */
public record PostgresConfig(Server server, Designs designs, Duration timeout, ReadReplicas replicas) {

    /**
     * Where the store connects.
     *
     * @param url      JDBC URL (ignored when embedded)
     * @param user     role to log in as (ignored when embedded); null for postgres
     * @param password its password, may be null
     * @param pool     session connections in the pool; 0 picks one from the server's max_connections
     * @param embedded start a throwaway server instead of connecting to {@code url}
     */
    public record Server(String url, String user, String password, int pool, boolean embedded) {}

    /**
     * The schema's designs.
     *
     * @param friendshipRows rows per confirmed friendship, 1 or 2
     * @param view           how View Profile gets the counts
     * @param refresh        with {@link PostgresStore.Design#MATVIEW}: null to refresh the view in every count-changing
     *                       write, or the interval of a background refresh (VP counts may then be stale); null with
     *                       BASIC
     * @param feed           the feed design
     * @param physical       friendship tables, counts, profile images (CIKM 2013 sections C–E); the matview design
     *                       keeps the counts in its view, so it refuses {@code counts=attributes}
     */
    public record Designs(
            int friendshipRows, PostgresStore.Design view, Duration refresh, FeedDesign feed, PhysicalDesign physical) {
        public Designs {
            if (physical == null) {
                physical = PhysicalDesign.BASIC;
            }
            if (view == PostgresStore.Design.MATVIEW && physical.countAttributes()) {
                throw new IllegalArgumentException(
                        "the matview design keeps the counts in its view, not as attributes");
            }
            if (view == null) {
                view = PostgresStore.Design.BASIC;
            }
            if (feed == null) {
                feed = FeedDesign.PULL;
            }
            if (refresh != null && (view != PostgresStore.Design.MATVIEW || refresh.isNegative() || refresh.isZero())) {
                throw new IllegalArgumentException("a refresh interval needs the matview design and must be positive");
            }
        }
    }

    public PostgresConfig {
        if (replicas == null) {
            replicas = ReadReplicas.NONE;
        }
        if (timeout == null) {
            timeout = StoreSettings.defaultTimeout(StoreSettings.DEFAULT_BETA);
        }
        if (timeout.compareTo(StoreSettings.MIN_TIMEOUT) < 0) {
            throw new IllegalArgumentException("the timeout must be at least 1 s, got " + timeout);
        }
    }

    /** A throwaway embedded server, the Basic design, an automatic pool. */
    public static Builder embedded() {
        return new Builder().embedded(true);
    }

    /** The server at JDBC URL {@code url}, the Basic design, an automatic pool. */
    public static Builder at(String url) {
        return new Builder().url(url);
    }

    /** Named settings, each at its default until set: user postgres, one row per friendship, pull feed, … */
    public static final class Builder {
        private String url;
        private String user;
        private String password;
        private int pool;
        private boolean embedded;
        private int friendshipRows = 1;
        private PostgresStore.Design design;
        private Duration refresh;
        private FeedDesign feed;
        private PhysicalDesign physical;
        private Duration timeout;
        private ReadReplicas replicas;

        private Builder() {}

        public Builder url(String v) {
            url = v;
            return this;
        }

        public Builder user(String v) {
            user = v;
            return this;
        }

        public Builder password(String v) {
            password = v;
            return this;
        }

        public Builder pool(int v) {
            pool = v;
            return this;
        }

        public Builder embedded(boolean v) {
            embedded = v;
            return this;
        }

        public Builder friendshipRows(int v) {
            friendshipRows = v;
            return this;
        }

        public Builder design(PostgresStore.Design v) {
            design = v;
            return this;
        }

        public Builder refresh(Duration v) {
            refresh = v;
            return this;
        }

        public Builder feed(FeedDesign v) {
            feed = v;
            return this;
        }

        public Builder physical(PhysicalDesign v) {
            physical = v;
            return this;
        }

        public Builder timeout(Duration v) {
            timeout = v;
            return this;
        }

        public Builder replicas(ReadReplicas v) {
            replicas = v;
            return this;
        }

        public PostgresConfig build() {
            return new PostgresConfig(
                    new Server(url, user, password, pool, embedded),
                    new Designs(friendshipRows, design, refresh, feed, physical),
                    timeout,
                    replicas);
        }
    }
}
