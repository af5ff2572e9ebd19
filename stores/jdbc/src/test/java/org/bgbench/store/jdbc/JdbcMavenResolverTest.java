package org.bgbench.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jdbc.driver-maven's resolution: Maven's local repository first, then BG's cache, then a remote repository (here a
 * file: repository the test lays out, a jar and its .sha1), whose download is checked against the .sha1.
 */
class JdbcMavenResolverTest {
    private static final String PATH = "org/example/fake-driver/1.0/fake-driver-1.0.jar";

    @TempDir
    Path tmp;

    private Path local;
    private Path cache;
    private Path remote;

    private MavenResolver resolver() throws IOException {
        local = Files.createDirectories(tmp.resolve("m2"));
        cache = tmp.resolve("cache");
        remote = Files.createDirectories(tmp.resolve("remote"));
        return new MavenResolver(local, cache, remote.toUri());
    }

    private static byte[] jarBytes() {
        return "not really a jar, but bytes to check".getBytes(StandardCharsets.UTF_8);
    }

    private void publish(byte[] jar, String sha1) throws IOException {
        Path j = remote.resolve(PATH);
        Files.createDirectories(j.getParent());
        Files.write(j, jar);
        if (sha1 != null) {
            Files.writeString(j.resolveSibling(j.getFileName() + ".sha1"), sha1);
        }
    }

    @Test
    void downloadsIntoTheCacheAfterCheckingTheSha1AndThenUsesTheCache() throws IOException {
        MavenResolver r = resolver();
        // Maven Central's .sha1 files hold the hash alone; some repositories add the file name.
        publish(jarBytes(), MavenResolver.sha1(jarBytes()) + "  fake-driver-1.0.jar\n");
        Path got = r.resolve("k", "org.example:fake-driver:1.0");
        assertThat(got).isEqualTo(cache.resolve(PATH));
        assertThat(Files.readAllBytes(got)).isEqualTo(jarBytes());
        // The remote copy changes (or goes): the cached, checked one is used.
        Files.delete(remote.resolve(PATH));
        assertThat(r.resolve("k", "org.example:fake-driver:1.0")).isEqualTo(cache.resolve(PATH));
    }

    @Test
    void aChecksumMismatchIsRefusedAndNothingIsCached() throws IOException {
        MavenResolver r = resolver();
        publish(jarBytes(), MavenResolver.sha1("other bytes".getBytes(StandardCharsets.UTF_8)));
        assertThatThrownBy(() -> r.resolve(JdbcStoreProvider.DRIVER_MAVEN, "org.example:fake-driver:1.0"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("jdbc.driver-maven: checksum mismatch for org.example:fake-driver:1.0")
                .hasMessageContaining("refused");
        assertThat(cache.resolve(PATH)).doesNotExist();
        if (Files.exists(cache)) {
            try (var files = Files.walk(cache)) {
                assertThat(files.filter(Files::isRegularFile))
                        .as("no partial download left")
                        .isEmpty();
            }
        }
    }

    @Test
    void aRepositoryWithoutTheSha1IsNotTrusted() throws IOException {
        MavenResolver r = resolver();
        publish(jarBytes(), null);
        assertThatThrownBy(() -> r.resolve(JdbcStoreProvider.DRIVER_MAVEN, "org.example:fake-driver:1.0"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("org.example:fake-driver:1.0 is neither in");
        Files.writeString(remote.resolve(PATH + ".sha1"), "<html>not found</html>");
        assertThatThrownBy(() -> r.resolve(JdbcStoreProvider.DRIVER_MAVEN, "org.example:fake-driver:1.0"))
                .hasMessageContaining("holds no SHA-1");
    }

    @Test
    void theLocalRepositoryComesFirstAndIsNeverWritten() throws IOException {
        MavenResolver r = resolver();
        Path jar = local.resolve(PATH);
        Files.createDirectories(jar.getParent());
        Files.write(jar, jarBytes());
        // A remote copy with a wrong checksum is never looked at.
        publish("tampered".getBytes(StandardCharsets.UTF_8), "0".repeat(40));
        assertThat(r.resolve("k", "org.example:fake-driver:1.0")).isEqualTo(jar);
        assertThat(cache).doesNotExist();
    }

    @Test
    void theBuildsOwnLocalRepositoryResolvesARealDriver() {
        MavenResolver r = JdbcTests.localOnly(tmp);
        String v = JdbcTests.version("sqlite");
        assertThat(r.resolve("k", "org.xerial:sqlite-jdbc:" + v))
                .isEqualTo(JdbcTests.m2().resolve("org/xerial/sqlite-jdbc/" + v + "/sqlite-jdbc-" + v + ".jar"));
    }

    @Test
    void anUnknownArtifactNamesTheSettingAndBothPlacesLooked() throws IOException {
        MavenResolver r = resolver();
        assertThatThrownBy(() -> r.resolve(JdbcStoreProvider.DRIVER_MAVEN, "org.example:missing:9.9"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("jdbc.driver-maven: org.example:missing:9.9 is neither in " + local)
                .hasMessageContaining(remote.toUri().toString())
                .hasMessageContaining("jdbc.maven-repo");
    }

    @Test
    void malformedCoordinatesAreRefused() throws IOException {
        MavenResolver r = resolver();
        for (String bad : new String[] {
            "org.example:fake-driver",
            "org.example:fake-driver:1.0:jar:x",
            "a::1",
            "../../etc:passwd:1",
            "org.example:fake driver:1.0"
        }) {
            assertThatThrownBy(() -> r.resolve(JdbcStoreProvider.DRIVER_MAVEN, bad))
                    .as(bad)
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("jdbc.driver-maven: expected Maven coordinates group:artifact:version");
        }
    }

    @Test
    void theRepositorySettingTakesHttpHttpsOrFileUrls() {
        assertThat(MavenResolver.repository(JdbcStoreProvider.MAVEN_REPO, "https://repo.example.org/maven2"))
                .isEqualTo(URI.create("https://repo.example.org/maven2"));
        assertThatThrownBy(() -> MavenResolver.repository(JdbcStoreProvider.MAVEN_REPO, "ftp://x/y"))
                .hasMessageStartingWith("jdbc.maven-repo: expected an https://, http:// or file: URL");
        assertThatThrownBy(() -> MavenResolver.repository(JdbcStoreProvider.MAVEN_REPO, "repo.example.org"))
                .hasMessageStartingWith("jdbc.maven-repo: expected");
    }
}
