package org.bgbench.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.bgbench.store.StoreSettings;

/** What the jdbc tests share: the local repository and driver versions Maven passes in, and opening a store. */
final class JdbcTests {
    private JdbcTests() {}

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
        return new MavenResolver(
                m2(),
                tmp.resolve("drivers-cache"),
                URI.create(tmp.resolve("no-repository").toUri().toString()));
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

    /** A store on H2 in {@code dir} with the shipped dialect file, the driver by its Maven coordinates; and more. */
    static JdbcStore openH2(Path dir, String... more) {
        String[] base = {
            JdbcStoreProvider.URL,
            "jdbc:h2:" + dir.resolve("bg-h2").toAbsolutePath(),
            JdbcStoreProvider.DRIVER_MAVEN,
            "com.h2database:h2:" + version("h2"),
            JdbcStoreProvider.DIALECT,
            dialectFile("h2.properties").toString()
        };
        String[] all = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return open(dir, all);
    }

    /** pgJDBC's jar in the local repository. */
    static Path pgjdbcJar() {
        String v = version("postgresql");
        Path jar = m2().resolve("org/postgresql/postgresql/" + v + "/postgresql-" + v + ".jar");
        assertThat(jar).as("pgJDBC in the local repository").isRegularFile();
        return jar;
    }

    /** An embedded PostgreSQL (the postgres store's zonky binaries) with its data under {@code dir}. */
    static EmbeddedPostgres startPostgres(Path dir) {
        try {
            Path data = Files.createDirectories(dir.resolve("pgdata"));
            return EmbeddedPostgres.builder()
                    .setDataDirectory(data)
                    .setCleanDataDirectory(true)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the embedded PostgreSQL: " + e.getMessage(), e);
        }
    }
}
