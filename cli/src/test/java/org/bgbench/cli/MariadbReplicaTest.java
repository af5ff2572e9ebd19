package org.bgbench.cli;

import org.bgbench.store.StoreProvider;
import org.bgbench.store.mariadb.MariadbStoreProvider;
import org.junit.jupiter.api.Tag;

/**
 * {@link ReplicaReadsSuite} on MariaDB: a primary and a GTID replica with {@code MASTER_DELAY=1}
 * (scripts/mariadb-replica.sh). MASTER_DELAY counts whole seconds from the binlog event's whole-second timestamp, so a
 * write shows on the replica up to about 1 s after it ran, plus the replica's apply lag (measured here under load: all
 * reads fresh from 1.7 s on); every read from 3 s after a write on must be fresh.
 */
@Tag("server")
class MariadbReplicaTest extends ReplicaReadsSuite {
    @Override
    ReplicaPair startPair() {
        return ReplicaPair.mariadb((int) (delayMs() / 1000));
    }

    @Override
    long delayMs() {
        return 1_000;
    }

    @Override
    long allFreshAfterMs() {
        return 3_000;
    }

    @Override
    StoreProvider provider() {
        return new MariadbStoreProvider();
    }

    @Override
    String unreachable(int port) {
        return "cannot reach MariaDB at jdbc:mariadb://127.0.0.1:" + port + "/bg";
    }
}
