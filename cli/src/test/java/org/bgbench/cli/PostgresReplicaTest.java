package org.bgbench.cli;

import org.bgbench.store.StoreProvider;
import org.bgbench.store.postgres.PostgresStoreProvider;

/**
 * {@link ReplicaReadsSuite} on PostgreSQL: a primary and a streaming replica with a 1 s {@code recovery_min_apply_delay}
 * (scripts/postgres-replica.sh); every read from 2 s after a write on must be fresh.
 */
class PostgresReplicaTest extends ReplicaReadsSuite {
    @Override
    ReplicaPair startPair() {
        return ReplicaPair.postgres(delayMs() + "ms");
    }

    @Override
    long delayMs() {
        return 1_000;
    }

    @Override
    long allFreshAfterMs() {
        return 2_000;
    }

    @Override
    StoreProvider provider() {
        return new PostgresStoreProvider();
    }

    @Override
    String unreachable(int port) {
        return "cannot reach PostgreSQL at 127.0.0.1:" + port;
    }
}
