package org.bgbench.store.jdbc;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.bgbench.store.StoreSettings;

/** What the jdbc tests share: the local repository and driver versions Maven passes in, and opening a store. */
final class JdbcTests {
    private JdbcTests() {
    }

    /** Maven's local repository of this build (surefire passes it; ~/.m2/repository otherwise). */
    static Path m2() {
        String p = System.getProperty("bg.test.m2");
        return p == null || p.isBlank() ? Path.of(System.getProperty("user.home"), ".m2/repository") : Path.of(p);
    }

    static String version(String engine) {
        String v = System.getProperty("bg.test." + engine + ".version");
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("bg.test." + engine + ".version is not set (run the tests with Maven)");
        }
        return v;
    }

    /**
     * A resolver over this build's local repository only: its cache is a temporary directory and its remote
     * repository one that does not exist, so a test never downloads and never writes under the home directory.
     */
    static MavenResolver localOnly(Path tmp) {
        return new MavenResolver(m2(), tmp.resolve("drivers-cache"), URI.create(tmp.resolve("no-repository").toUri()
                .toString()));
    }

    /** The settings the provider would read from {@code -p key=value} options, with its defaults. */
    static StoreSettings settings(String... keyValues) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return StoreSettings.forProvider(new JdbcStoreProvider(), m);
    }

    static JdbcStore open(Path tmp, String... keyValues) {
        return JdbcStore.open(JdbcStoreProvider.config(settings(keyValues), localOnly(tmp)));
    }

    /** The dialect files shipped with the module (surefire runs in the module's directory). */
    static Path dialectFile(String name) {
        Path p = Path.of("dialects", name);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("no dialect file " + p.toAbsolutePath());
        }
        return p;
    }
}
