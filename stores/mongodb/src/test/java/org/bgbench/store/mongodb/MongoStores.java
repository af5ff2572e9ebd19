package org.bgbench.store.mongodb;

import java.util.HashMap;
import java.util.Map;
import org.bgbench.store.StoreSettings;

/**
 * Stores of the module's tests, each test class in its own database. They run on the JVM's shared FerretDB server of
 * the backend asked for ({@link FerretServer#shared}), or, when the environment sets BG_TEST_MONGODB_URI, on that
 * server (a real MongoDB: the same tests, without {@code mongodb.document-locks}).
 */
final class MongoStores {
    static final String REAL_SERVER_ENV = "BG_TEST_MONGODB_URI";

    private MongoStores() {}

    static String uri(FerretServer.Backend backend) {
        return realServer()
                ? System.getenv(REAL_SERVER_ENV)
                : FerretServer.shared(backend).uri();
    }

    static boolean realServer() {
        String real = System.getenv(REAL_SERVER_ENV);
        return real != null && !real.isBlank();
    }

    static Map<String, String> settings(FerretServer.Backend backend, String database, Map<String, String> extra) {
        Map<String, String> s = new HashMap<>();
        s.put(MongoStoreProvider.URI, uri(backend));
        s.put(MongoStoreProvider.DATABASE, database);
        // The first requests are slow on a busy 2-core machine.
        s.put(MongoStoreProvider.TIMEOUT, "60s");
        // FerretDB loses concurrent updates of one document (MongoDocumentLocksTest); MongoDB needs no locks.
        s.put(MongoStoreProvider.DOCUMENT_LOCKS, Boolean.toString(!realServer()));
        s.putAll(extra);
        return s;
    }

    static MongoStore open(FerretServer.Backend backend, String database, Map<String, String> extra) {
        MongoStoreProvider p = new MongoStoreProvider();
        return (MongoStore) p.open(StoreSettings.forProvider(p, settings(backend, database, extra)));
    }
}
