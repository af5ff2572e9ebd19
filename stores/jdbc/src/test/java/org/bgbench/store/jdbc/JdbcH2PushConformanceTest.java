package org.bgbench.store.jdbc;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite on H2 (dialects/h2.properties) with the push feed copying the resource's content: fan-out by
 * {@code INSERT … SELECT … CROSS JOIN}, the sharer's row locked {@code FOR UPDATE}, concurrent AFR/TF.
 */
class JdbcH2PushConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        return JdbcH2ConformanceTest.openH2(dir, "feed.design", "push", "feed.push", "content");
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
