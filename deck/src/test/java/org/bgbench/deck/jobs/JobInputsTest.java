package org.bgbench.deck.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.bgbench.store.StoreRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which settings the deck takes as loading code or files from elsewhere: the stores' declared kinds decide, through
 * the same rule as a worker's (the requests over HTTP are in DeckSecurityTest).
 */
class JobInputsTest {
    @TempDir
    Path dir;

    private JobInputs inputs(boolean external) throws Exception {
        return new JobInputs(StoreRegistry.discover(), dir, Files.createDirectories(dir.resolve("runs")), external);
    }

    private static JobRequest load(String store, Map<String, String> settings) {
        return new JobRequest("load", store, settings, Map.of(), null, Map.of(), Map.of());
    }

    @Test
    void driversRepositoriesDialectFilesAndJdbcParametersNamingClassesOrFilesAreRefused() throws Exception {
        JobInputs in = inputs(false);
        Map<String, Map.Entry<String, String>> refused = Map.of(
                "jdbc.driver-jar", Map.entry("jdbc", "/tmp/x.jar"),
                "jdbc.driver-maven", Map.entry("jdbc", "g:a:1"),
                "jdbc.maven-repo", Map.entry("jdbc", "https://repo.example/"),
                "jdbc.dialect", Map.entry("jdbc", "/etc/my.properties"),
                "jdbc.url", Map.entry("jdbc", "jdbc:postgresql://db/bg?sslmode=require&socketFactory=x.Y"));
        refused.forEach((key, e) -> assertThatThrownBy(() -> in.check(load(e.getKey(), Map.of(key, e.getValue()))))
                .as(key)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(key + ": ")
                .hasMessageContaining(JobInputs.ALLOW_OPTION));
        assertThatThrownBy(() -> in.check(load("jdbc", Map.of("jdbc.url", "jdbc:postgresql://db/bg?sslrootcert=/x"))))
                .hasMessageContaining("sslrootcert");
        assertThatThrownBy(() -> in.check(load("jdbc", Map.of("jdbc.url", "jdbc:sqlite:/tmp/elsewhere.db"))))
                .hasMessageContaining("is outside the runs directory");
        // what a store's connection ordinarily says, a built-in dialect and files under runs/ are passed on
        assertThatCode(() -> in.check(load(
                        "jdbc",
                        Map.of(
                                "jdbc.url",
                                "jdbc:postgresql://db:5432/bg?sslmode=require&tcpKeepAlive=true&ApplicationName=bg",
                                "jdbc.dialect",
                                "postgresql"))))
                .doesNotThrowAnyException();
        assertThatCode(() -> in.check(load("sqlite", Map.of("sqlite.file", "runs/bg.sqlite", "usercount", "1000"))))
                .doesNotThrowAnyException();
        // started to allow them, the deck passes everything on
        assertThatCode(() -> inputs(true).check(load("jdbc", Map.of("jdbc.driver-jar", "/tmp/x.jar"))))
                .doesNotThrowAnyException();
        assertThat(JobInputs.ALLOW_OPTION).isEqualTo("--allow-external");
    }
}
