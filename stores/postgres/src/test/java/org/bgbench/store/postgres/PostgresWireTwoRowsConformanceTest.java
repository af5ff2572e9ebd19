package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/**
 * The conformance suite with BG's own protocol client and two rows per friendship: Thaw's one statement changes two
 * rows on the wire connection, while Accept's two statements run in a transaction on pgJDBC's, so each action sees
 * the other connection's committed writes.
 */
@Tag("server")
class PostgresWireTwoRowsConformanceTest extends StoreConformanceSuite {
    @Override
    protected DataStore openStore() {
        return PostgresStore.open(new PostgresStore.Config(null, null, null, 0, true, 2)
                .withClient(PostgresStore.Client.WIRE));
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(new PostgresStore.Config(((PostgresStore) store).url(), null, null, 2, false, 2)
                .withClient(PostgresStore.Client.WIRE));
    }
}
