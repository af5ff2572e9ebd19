package org.bgbench.store.cassandra;

import java.util.HashMap;
import java.util.Map;
import org.bgbench.store.StoreSettings;

/** Stores (with a snapshot image) on the module's shared single node ({@link CassandraServer#single()}), each test class in its own keyspace. */
final class CassandraStores {
    private CassandraStores() {}

    /** The settings of a store in {@code keyspace} of the shared node, plus {@code extra}. */
    static Map<String, String> settings(String keyspace, Map<String, String> extra) {
        CassandraServer server = CassandraServer.single();
        Map<String, String> s = new HashMap<>();
        s.put(CassandraStoreProvider.CONTACT_POINTS, server.contactPoints());
        s.put(CassandraStoreProvider.DATACENTER, server.datacenter());
        s.put(CassandraStoreProvider.KEYSPACE, keyspace);
        // The node's directory: BG reports its CPU and keeps a snapshot image of it.
        s.put(CassandraStoreProvider.SERVER_DIR, server.dir().toString());
        // Schema changes and the first requests are slow on a busy 2-core machine.
        s.put(CassandraStoreProvider.TIMEOUT, "60s");
        s.putAll(extra);
        return s;
    }

    static CassandraStore open(String keyspace, Map<String, String> extra) {
        CassandraStoreProvider p = new CassandraStoreProvider();
        return (CassandraStore) p.open(StoreSettings.forProvider(p, settings(keyspace, extra)));
    }
}
