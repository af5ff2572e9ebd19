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

    private PostgresConfig config(String... keyValues) {
        Map<String, String> given = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            given.put(keyValues[i], keyValues[i + 1]);
        }
        return PostgresStoreProvider.config(StoreSettings.forProvider(provider, given));
    }

    @Test
    void theBasicDesignIsTheDefault() {
        PostgresConfig c = config();
        assertThat(c.designs().view()).isEqualTo(PostgresStore.Design.BASIC);
        assertThat(c.designs().refresh()).isNull();
        assertThat(provider.settings()).extracting(s -> s.key()).contains("postgres.design", "postgres.refresh");
    }

    @Test
    void theMatviewDesignRefreshesSynchronouslyOrAtAnInterval() {
        assertThat(config("postgres.design", "matview").designs().view()).isEqualTo(PostgresStore.Design.MATVIEW);
        assertThat(config("postgres.design", "matview").designs().refresh())
                .as("sync by default")
                .isNull();
        assertThat(config("postgres.design", "MatView", "postgres.refresh", "SYNC")
                        .designs()
                        .refresh())
                .isNull();
        assertThat(config("postgres.design", "matview", "postgres.refresh", "5s")
                        .designs()
                        .refresh())
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(config("postgres.design", "matview", "postgres.refresh", "500ms")
                        .designs()
                        .refresh())
                .isEqualTo(Duration.ofMillis(500));
        assertThat(config("postgres.design", "matview", "postgres.refresh", "PT1M")
                        .designs()
                        .refresh())
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(config("postgres.design", "matview", "postgres.refresh", "2")
                        .designs()
                        .refresh())
                .as("a plain number is seconds, as BG's other durations")
                .isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void anUnknownDesignIsRefused() {
        assertThatThrownBy(() -> config("postgres.design", "manual"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("postgres.design: expected one of basic, matview, got 'manual'")
                .extracting(e -> ((InvalidParameterException) e).parameter())
                .isEqualTo("postgres.design");
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
        assertThatThrownBy(() ->
                        PostgresConfig.embedded().refresh(Duration.ofSeconds(1)).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTimeoutFollowsBetaUnlessGiven() {
        assertThat(config().timeout()).as("max(10 s, 100·β) at β = 100 ms").isEqualTo(Duration.ofSeconds(10));
        StoreSettings slowSla = StoreSettings.forProvider(provider, Map.of()).withBeta(Duration.ofMillis(500));
        assertThat(PostgresStoreProvider.config(slowSla).timeout()).isEqualTo(Duration.ofSeconds(50));
        StoreSettings fastSla = StoreSettings.forProvider(provider, Map.of()).withBeta(Duration.ofMillis(5));
        assertThat(PostgresStoreProvider.config(fastSla).timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config("postgres.timeout", "30s").timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config("postgres.timeout", "2").timeout())
                .as("plain seconds")
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(config("postgres.timeout", "1500ms").timeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(provider.settings()).extracting(s -> s.key()).contains("postgres.timeout");
        // Not a key with a default: BG's saved state is named after the settings, and β must not change the name.
        assertThat(StoreSettings.forProvider(provider, Map.of()).asMap()).doesNotContainKey("postgres.timeout");
    }

    @Test
    void aBadTimeoutIsRefusedNamingTheKey() {
        for (String bad : new String[] {"soon", "-1s", "10 parsecs"}) {
            assertThatThrownBy(() -> config("postgres.timeout", bad))
                    .as(bad)
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessage("postgres.timeout: expected a timeout such as 10s, 30s or 2m, got '" + bad + "'")
                    .extracting(e -> ((InvalidParameterException) e).parameter())
                    .isEqualTo("postgres.timeout");
        }
        for (String bad : new String[] {"0", "500ms", "2d"}) {
            assertThatThrownBy(() -> config("postgres.timeout", bad))
                    .as(bad)
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessage("postgres.timeout: expected a timeout from 1s to 1d, got '" + bad + "'");
        }
    }

    @Test
    void thePhysicalDesignSettingsAreReadAndMatviewRefusesCountsAsAttributes() {
        assertThat(config().designs().physical()).isEqualTo(PhysicalDesign.BASIC);
        PhysicalDesign boosted = config(
                        "friendship.tables",
                        "2",
                        "counts",
                        "attributes",
                        "images",
                        "fs",
                        "postgres.url",
                        "jdbc:postgresql://db:5432/social?ssl=false")
                .designs()
                .physical();
        assertThat(boosted)
                .isEqualTo(new PhysicalDesign(
                        2, true, true, Path.of(System.getProperty("user.home"), ".bg", "images", "postgres-social")));
        assertThat(config("postgres.embedded", "true", "images", "fs")
                        .designs()
                        .physical()
                        .imagesDir()
                        .getFileName())
                .isEqualTo(Path.of("postgres-embedded"));
        assertThat(config("postgres.design", "matview", "friendship.tables", "2")
                        .designs()
                        .physical()
                        .twoTables())
                .isTrue();
        assertThatThrownBy(() -> config("postgres.design", "matview", "counts", "attributes"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("counts: attributes cannot be combined with postgres.design=matview (both keep VP's counts:"
                        + " the view or the member columns); choose one");
        assertThatThrownBy(() -> config("images", "blob")).hasMessage("images: expected one of inline, fs, got 'blob'");
    }

    @Test
    void theSettingsOfTheRemovedWireClientAreRefusedSayingWhatReplacedThem(@TempDir Path dir) {
        // pgjdbc is what BG does for every action: an old command line that names it still runs.
        assertThat(config("postgres.client", "pgjdbc").server().pool()).isZero();
        assertThatThrownBy(() -> config("postgres.client", "wire"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("postgres.client: BG's own protocol client (wire) is gone: BG uses pgJDBC for every "
                        + "action; drop the setting");
        assertThatThrownBy(() -> config("postgres.client", "libpq"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("pgJDBC");
        assertThatThrownBy(() -> config("postgres.socket", dir.toString()))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("postgres.socket: is gone with BG's own protocol client: BG uses pgJDBC over TCP to "
                        + "postgres.url; drop the setting");
    }
}
