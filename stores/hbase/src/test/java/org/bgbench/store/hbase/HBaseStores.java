package org.bgbench.store.hbase;

import java.util.HashMap;
import java.util.Map;
import org.bgbench.store.StoreSettings;

/**
 * Stores on the module's shared standalone server ({@link HBaseServer#single()}), each test class under its own table
 * prefix; or, when the environment sets BG_TEST_HBASE_QUORUM=HOST:PORT, on that HBase's ZooKeeper instead.
 */
final class HBaseStores {
    private HBaseStores() {}

    /** The settings of a store under {@code prefix} on the shared server, plus {@code extra}. */
    static Map<String, String> settings(String prefix, Map<String, String> extra) {
        Map<String, String> s = new HashMap<>();
        String given = System.getenv("BG_TEST_HBASE_QUORUM");
        if (given != null && !given.isBlank()) {
            int colon = given.lastIndexOf(':');
            s.put(HBaseStoreProvider.QUORUM, given.substring(0, colon));
            s.put(HBaseStoreProvider.ZK_PORT, given.substring(colon + 1));
        } else {
            HBaseServer server = HBaseServer.single();
            s.put(HBaseStoreProvider.QUORUM, server.quorum());
            s.put(HBaseStoreProvider.ZK_PORT, Integer.toString(server.zkPort()));
            // The server's directory: BG reports its CPU.
            s.put(HBaseStoreProvider.SERVER_DIR, server.dir().toString());
        }
        s.put(HBaseStoreProvider.TABLE_PREFIX, prefix);
        // Table changes and the first requests are slow on a busy 2-core machine.
        s.put(HBaseStoreProvider.TIMEOUT, "60s");
        s.putAll(extra);
        return s;
    }

    static HBaseStore open(String prefix, Map<String, String> extra) {
        HBaseStoreProvider p = new HBaseStoreProvider();
        return (HBaseStore) p.open(StoreSettings.forProvider(p, settings(prefix, extra)));
    }
}
