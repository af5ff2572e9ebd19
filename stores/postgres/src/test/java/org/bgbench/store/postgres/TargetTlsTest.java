package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TargetTlsTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "jdbc:postgresql://localhost:5432/bg              | disable",
                "jdbc:postgresql://127.0.0.1/bg                   | disable",
                "jdbc:postgresql://127.0.1.1:6000/bg              | disable",
                "jdbc:postgresql://[::1]:5432/bg                  | disable",
                "jdbc:postgresql://localhost:5432,127.0.0.1:5433/bg | disable",
                "jdbc:postgresql://db.example.com/bg              | ",
                "jdbc:postgresql://10.0.0.7:5432/bg               | ",
                "jdbc:postgresql://localhost:5432,db2:5432/bg     | ",
                "jdbc:postgresql://localhost/bg?sslmode=require    | ",
                "jdbc:postgresql://localhost/bg?ssl=true           | ",
                "jdbc:postgresql://localhost/bg?sslmode=disable    | ",
            })
    void encryptionIsOffOnlyOnThisMachineAndOnlyWhenTheUrlDoesNotChoose(String url, String expected) {
        Properties props = new Properties();
        props.setProperty("sslmode", "stale");
        Target.of(url, "postgres").chooseTls(props);
        // Where the URL chooses, pgJDBC reads its parameter; BG's properties say nothing.
        assertThat(props.getProperty("sslmode")).as(url).isEqualTo(expected);
    }
}
