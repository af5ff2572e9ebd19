package org.bgbench.scaling.speedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostsTest {
    @Test
    void hostsInSettings() {
        assertThat(Hosts.inSettings(Map.of("postgres.url", "jdbc:postgresql://10.0.0.1:5432,10.0.0.2:5433/bg?ssl=x")))
                .containsExactlyInAnyOrder("10.0.0.1", "10.0.0.2");
        assertThat(Hosts.inSettings(Map.of("mongodb.uri", "mongodb://bg:pw@db1,db2:27018/?replicaSet=rs0")))
                .containsExactlyInAnyOrder("db1", "db2");
        assertThat(Hosts.inSettings(Map.of(
                        "cassandra.contact-points",
                        "127.0.0.1:9042,127.0.0.2:9042",
                        "cassandra.replication-factor",
                        "3")))
                .containsExactlyInAnyOrder("127.0.0.1", "127.0.0.2");
        assertThat(Hosts.inSettings(Map.of("postgres.pool", "8"))).isEmpty();
        assertThat(Hosts.host("[::1]:9100")).isEqualTo("::1");
        assertThat(Hosts.host("db1:9100")).isEqualTo("db1");
    }

    @Test
    void whetherEverythingIsOnThisMachine() {
        assertThat(Hosts.allOnThisMachine(List.of("127.0.0.1", "localhost", "127.0.0.2", "[::1]:9100")))
                .isTrue();
        // A documentation-range address (RFC 5737) is never this machine.
        assertThat(Hosts.allOnThisMachine(List.of("127.0.0.1", "192.0.2.7"))).isFalse();
        assertThat(Hosts.allOnThisMachine(List.of("no-such-host.invalid"))).isFalse();
    }
}
