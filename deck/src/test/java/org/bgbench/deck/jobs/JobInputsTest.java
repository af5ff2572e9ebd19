package org.bgbench.deck.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which settings the deck takes as loading code or files from elsewhere (the requests are in DeckSecurityTest). */
class JobInputsTest {
    @Test
    void driversRepositoriesDialectFilesAndJdbcParametersNamingClassesOrFiles() {
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("jdbc.driver-jar", "/tmp/x.jar")).isTrue();
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("JDBC.Driver-Maven", "g:a:1")).isTrue();
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("jdbc.maven-repo", "https://repo.example/")).isTrue();
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("jdbc.dialect", "my.properties")).isTrue();
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("jdbc.dialect", "postgresql")).isFalse();
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("postgres.url",
                "jdbc:postgresql://db/bg?sslmode=require&socketFactory=x.Y")).isTrue();
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("postgres.url", "jdbc:postgresql://db/bg?sslrootcert=/x"))
                .isTrue();
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("mariadb.url",
                "jdbc:mariadb://db/bg?allowLoadLocalInfile=true")).isTrue();
        // what a store's connection ordinarily says is passed on
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("postgres.url",
                "jdbc:postgresql://db:5432/bg?sslmode=require&tcpKeepAlive=true&ApplicationName=bg")).isFalse();
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("mariadb.url",
                "jdbc:mariadb://db/bg?allowPublicKeyRetrieval=true;connectTimeout=5000")).isFalse();
        assertThat(JobInputs.loadsCodeOrFilesFromElsewhere("usercount", "1000")).isFalse();
    }
}
