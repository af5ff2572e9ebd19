package org.bgbench.scaling.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoreAddressesTest {
    @Test
    void hostsComeFromUrlsContactPointsAndConnectionStrings() {
        Map<String, String> s = Map.of(
                "postgres.url", "jdbc:postgresql://127.0.0.2:5433/bg",
                "postgres.read-urls", "jdbc:postgresql://10.1.2.3:5432/bg,jdbc:postgresql://db2.example.org/bg",
                "cassandra.contact-points", "127.0.0.1:9042, 127.0.0.2:9042",
                "mongodb.connection", "mongodb://bg:secret@[::1]:27017,localhost:27018/bg?w=1",
                "sqlite.file", "/tmp/bg.sqlite",
                "postgres.pool", "16");
        assertThat(StoreAddresses.hosts(s)).containsExactlyInAnyOrder("127.0.0.2", "10.1.2.3", "db2.example.org",
                "127.0.0.1", "::1", "localhost");
        // A file path, a number or a JDBC URL without an authority name no host.
        assertThat(StoreAddresses.hosts(Map.of("sqlite.url", "jdbc:sqlite:/tmp/x", "hbase.quorum", "bg"))).isEmpty();
    }

    @Test
    void allLocalOnlyWhenEveryHostIsThisMachine() {
        assertThat(StoreAddresses.allLocal(List.of("127.0.0.1", "127.0.0.3", "localhost", "::1"))).isTrue();
        assertThat(StoreAddresses.allLocal(List.of())).isTrue();
        // 192.0.2.0/24 is reserved for documentation: never an address of this machine.
        assertThat(StoreAddresses.allLocal(List.of("127.0.0.1", "192.0.2.7"))).isFalse();
        assertThat(StoreAddresses.oneHostWarning(List.of("127.0.0.1"))).contains("127.0.0.1", "not the store's");
    }
}
