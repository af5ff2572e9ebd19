package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings of the provider that need no server: the design and refresh keys and how bad values are refused. */
@Tag("server")
class PostgresStoreProviderTest {
    private final PostgresStoreProvider provider = new PostgresStoreProvider();

    private PostgresStore.Config config(String... keyValues) {
        Map<String, String> given = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            given.put(keyValues[i], keyValues[i + 1]);
        }
        return PostgresStoreProvider.config(StoreSettings.forProvider(provider, given));
    }

    @Test
    void theBasicDesignIsTheDefault() {
        PostgresStore.Config c = config();
        assertThat(c.design()).isEqualTo(PostgresStore.Design.BASIC);
        assertThat(c.refresh()).isNull();
        assertThat(provider.settings()).extracting(s -> s.key()).contains("postgres.design", "postgres.refresh");
    }

    @Test
    void theMatviewDesignRefreshesSynchronouslyOrAtAnInterval() {
        assertThat(config("postgres.design", "matview").design()).isEqualTo(PostgresStore.Design.MATVIEW);
        assertThat(config("postgres.design", "matview").refresh()).as("sync by default").isNull();
        assertThat(config("postgres.design", "MatView", "postgres.refresh", "SYNC").refresh()).isNull();
        assertThat(config("postgres.design", "matview", "postgres.refresh", "5s").refresh())
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(config("postgres.design", "matview", "postgres.refresh", "500ms").refresh())
                .isEqualTo(Duration.ofMillis(500));
        assertThat(config("postgres.design", "matview", "postgres.refresh", "PT1M").refresh())
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(config("postgres.design", "matview", "postgres.refresh", "2").refresh())
                .as("a plain number is seconds, as BG's other durations").isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void anUnknownDesignIsRefused() {
        assertThatThrownBy(() -> config("postgres.design", "manual"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("postgres.design: expected one of basic, matview, got 'manual'")
                .extracting(e -> ((InvalidParameterException) e).parameter()).isEqualTo("postgres.design");
    }

    @Test
    void aRefreshWithTheBasicDesignIsRefused() {
        for (String refresh : new String[] {"5s", "sync"}) {
            assertThatThrownBy(() -> config("postgres.refresh", refresh))
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("postgres.refresh: applies only to postgres.design=matview")
                    .hasMessageContaining("got '" + refresh + "' with postgres.design=basic");
            assertThatThrownBy(() -> config("postgres.design", "basic", "postgres.refresh", refresh))
                    .isInstanceOf(InvalidParameterException.class);
        }
    }

    @Test
    void aBadRefreshIsRefused() {
        for (String bad : new String[] {"soon", "5 parsecs", "-1s", "1,5s"}) {
            assertThatThrownBy(() -> config("postgres.design", "matview", "postgres.refresh", bad))
                    .as(bad)
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessage("postgres.refresh: expected sync or a refresh interval such as 500ms, 5s or 1m, got '"
                            + bad + "'");
        }
        assertThatThrownBy(() -> config("postgres.design", "matview", "postgres.refresh", "0s"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("must be longer than 0");
    }

    @Test
    void theConfigRecordRefusesAnIntervalWithoutTheView() {
        assertThatThrownBy(() -> new PostgresStore.Config(null, null, null, 0, true, 1, PostgresStore.Design.BASIC,
                Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTimeoutFollowsBetaUnlessGiven() {
        assertThat(config().timeout()).as("max(10 s, 100·β) at β = 100 ms").isEqualTo(Duration.ofSeconds(10));
        StoreSettings slowSla = StoreSettings.forProvider(provider, Map.of()).withBeta(Duration.ofMillis(500));
        assertThat(PostgresStoreProvider.config(slowSla).timeout()).isEqualTo(Duration.ofSeconds(50));
        StoreSettings fastSla = StoreSettings.forProvider(provider, Map.of()).withBeta(Duration.ofMillis(5));
        assertThat(PostgresStoreProvider.config(fastSla).timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config("postgres.timeout", "30s").timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config("postgres.timeout", "2").timeout()).as("plain seconds").isEqualTo(Duration.ofSeconds(2));
        assertThat(config("postgres.timeout", "1500ms").timeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(provider.settings()).extracting(s -> s.key()).contains("postgres.timeout");
        // Not a key with a default: BG's saved state is named after the settings, and β must not change the name.
        assertThat(StoreSettings.forProvider(provider, Map.of()).asMap()).doesNotContainKey("postgres.timeout");
    }

    @Test
    void aBadTimeoutIsRefusedNamingTheKey() {
        for (String bad : new String[] {"soon", "-1s", "10 parsecs"}) {
            assertThatThrownBy(() -> config("postgres.timeout", bad)).as(bad)
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessage("postgres.timeout: expected a timeout such as 10s, 30s or 2m, got '" + bad + "'")
                    .extracting(e -> ((InvalidParameterException) e).parameter()).isEqualTo("postgres.timeout");
        }
        for (String bad : new String[] {"0", "500ms", "2d"}) {
            assertThatThrownBy(() -> config("postgres.timeout", bad)).as(bad)
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessage("postgres.timeout: expected a timeout from 1s to 1d, got '" + bad + "'");
        }
    }

    @Test
    void thePhysicalDesignSettingsAreReadAndMatviewRefusesCountsAsAttributes() {
        assertThat(config().physical()).isEqualTo(PhysicalDesign.BASIC);
        PhysicalDesign boosted = config("friendship.tables", "2", "counts", "attributes", "images", "fs",
                "postgres.url", "jdbc:postgresql://db:5432/social?ssl=false").physical();
        assertThat(boosted).isEqualTo(new PhysicalDesign(2, true, true,
                Path.of(System.getProperty("user.home"), ".bg", "images", "postgres-social")));
        assertThat(config("postgres.embedded", "true", "images", "fs").physical().imagesDir().getFileName())
                .isEqualTo(Path.of("postgres-embedded"));
        assertThat(config("postgres.design", "matview", "friendship.tables", "2").physical().twoTables()).isTrue();
        assertThatThrownBy(() -> config("postgres.design", "matview", "counts", "attributes"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("counts: attributes cannot be combined with postgres.design=matview (both keep VP's counts:"
                        + " the view or the member columns); choose one");
        assertThatThrownBy(() -> config("images", "blob"))
                .hasMessage("images: expected one of inline, fs, got 'blob'");
    }

    @Test
    void theReadClientIsPgjdbcUnlessWireIsAskedFor() {
        assertThat(config().client()).isEqualTo(PostgresStore.Client.PGJDBC);
        assertThat(config("postgres.client", "wire").client()).isEqualTo(PostgresStore.Client.WIRE);
        assertThatThrownBy(() -> config("postgres.client", "libpq"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("postgres.client: expected one of pgjdbc, wire, got 'libpq'");
    }

    @Test
    void theWireClientRefusesWhatItCannotRead() {
        assertThatThrownBy(() -> config("postgres.client", "wire", "postgres.design", "matview"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("postgres.client: wire reads the basic design")
                .hasMessageContaining("postgres.design=matview");
        assertThatThrownBy(() -> config("postgres.client", "wire", "images", "fs"))
                .isInstanceOf(InvalidParameterException.class).hasMessageContaining("images=fs");
        assertThatThrownBy(() -> config("postgres.client", "wire",
                "postgres.read-urls", "jdbc:postgresql://localhost:5433/bg"))
                .isInstanceOf(InvalidParameterException.class).hasMessageContaining("postgres.read-urls");
    }

    @Test
    void theWireClientSpeaksOnlyWithoutTls() {
        assertThat(Target.of("jdbc:postgresql://localhost:5432/bg", "u").plaintext()).isTrue();
        assertThat(Target.of("jdbc:postgresql://127.0.0.1:5432/bg?sslmode=require", "u").plaintext()).isFalse();
        assertThat(Target.of("jdbc:postgresql://db.example.com:5432/bg", "u").plaintext()).isFalse();
        assertThat(Target.of("jdbc:postgresql://db.example.com:5432/bg?sslmode=disable", "u").plaintext()).isTrue();
        assertThatThrownBy(() -> PostgresStore.open(new PostgresStore.Config(
                "jdbc:postgresql://db.example.com:5432/bg", "u", null, 2, false, 1)
                .withClient(PostgresStore.Client.WIRE)))
                .hasMessageStartingWith("postgres.client=wire speaks to one server without TLS");
    }

    @Test
    void aUnixSocketDirectoryIsForTheWireClientAndAServerOfOnesOwn(@TempDir Path dir) {
        assertThat(config("postgres.client", "wire").socket()).isNull();
        assertThat(config("postgres.client", "wire", "postgres.socket", dir.toString()).socket())
                .isEqualTo(dir.toString());
        assertThatThrownBy(() -> config("postgres.socket", dir.toString()))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("postgres.socket: is for postgres.client=wire");
        assertThatThrownBy(() -> config("postgres.client", "wire", "postgres.socket", "var/run/postgresql"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("absolute path").hasMessageContaining("var/run/postgresql");
        assertThatThrownBy(() -> config("postgres.client", "wire", "postgres.socket",
                dir.resolve("missing").toString()))
                .isInstanceOf(InvalidParameterException.class).hasMessageContaining("existing directory");
        assertThatThrownBy(() -> config("postgres.client", "wire", "postgres.embedded", "true",
                "postgres.socket", dir.toString()))
                .isInstanceOf(InvalidParameterException.class).hasMessageContaining("embedded server");
        assertThatThrownBy(() -> new PostgresStore.Config(null, null, null, 0, false, 1).withSocket("/tmp"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wire client");
    }
}
