package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bgbench.model.Action;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.relational.ReadReplicas;
import org.junit.jupiter.api.Test;

/** {@code postgres.read-urls} and {@code postgres.read-actions}: parsing, defaults, refusals (no server needed). */
class PostgresReplicaSettingsTest {
    private final PostgresStoreProvider provider = new PostgresStoreProvider();

    private ReadReplicas replicas(String... keyValues) {
        Map<String, String> given = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            given.put(keyValues[i], keyValues[i + 1]);
        }
        return PostgresStoreProvider.config(StoreSettings.forProvider(provider, given))
                .replicas();
    }

    @Test
    void withoutReadUrlsEveryReadIsOnThePrimary() {
        ReadReplicas r = replicas();
        assertThat(r.urls()).isEmpty();
        assertThat(r.routes()).isFalse();
        assertThat(r.routes(Action.VP)).isFalse();
        assertThat(provider.settings())
                .extracting(s -> s.key())
                .contains("postgres.read-urls", "postgres.read-actions");
        assertThat(provider.settings())
                .filteredOn(s -> s.key().startsWith("postgres.read-"))
                .allSatisfy(s -> assertThat(s.defaultValue())
                        .as("no default: absent unless given")
                        .isNull());
    }

    @Test
    void readUrlsRouteEveryReadActionByDefault() {
        ReadReplicas r = replicas(
                "postgres.read-urls", "jdbc:postgresql://127.0.0.3:5433/bg, jdbc:postgresql://127.0.0.4:5434/bg");
        assertThat(r.urls())
                .containsExactly("jdbc:postgresql://127.0.0.3:5433/bg", "jdbc:postgresql://127.0.0.4:5434/bg");
        assertThat(r.actions())
                .containsExactlyInAnyOrder(Action.VP, Action.LF, Action.VFR, Action.VTR, Action.VCR, Action.VNF);
        for (Action a : Action.values()) {
            assertThat(r.routes(a)).as(a.code()).isEqualTo(!a.isWrite());
        }
        // Session i reads from replica i mod n.
        assertThat(List.of(r.replicaOf(0), r.replicaOf(1), r.replicaOf(2), r.replicaOf(3)))
                .containsExactly(0, 1, 0, 1);
        assertThat(replicas("postgres.read-urls", "jdbc:postgresql://h/bg", "postgres.read-actions", "ALL")
                        .actions())
                .hasSize(6);
    }

    @Test
    void readActionsPickTheRoutedActionsOrNone() {
        ReadReplicas r = replicas("postgres.read-urls", "jdbc:postgresql://h:1/bg", "postgres.read-actions", "vp, LF");
        assertThat(r.actions()).containsExactlyInAnyOrder(Action.VP, Action.LF);
        assertThat(r.routes(Action.VTR)).isFalse();
        ReadReplicas none = replicas("postgres.read-urls", "jdbc:postgresql://h:1/bg", "postgres.read-actions", "none");
        assertThat(none.actions()).isEmpty();
        assertThat(none.routes()).isFalse();
    }

    @Test
    void badValuesAreRefusedWithOneLineNamingTheKey() {
        assertThatThrownBy(() ->
                        replicas("postgres.read-urls", "jdbc:postgresql://h/bg", "postgres.read-actions", "VP,IF"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("postgres.read-actions: expected all, none or a comma list of read actions VP, LF, VFR, "
                        + "VTR, VCR, VNF, got 'VP,IF'");
        assertThatThrownBy(() -> replicas("postgres.read-urls", "jdbc:mariadb://h/bg"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("postgres.read-urls: expected comma-separated JDBC URLs starting with jdbc:postgresql://, "
                        + "got 'jdbc:mariadb://h/bg'");
        assertThatThrownBy(() -> replicas("postgres.read-urls", "jdbc:postgresql://h/bg,"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("postgres.read-urls: ");
        assertThatThrownBy(() -> replicas("postgres.read-actions", "VP"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("postgres.read-actions: applies only with postgres.read-urls (the replicas to read from), "
                        + "got 'VP' without it");
        assertThatThrownBy(() -> replicas("postgres.read-urls", "jdbc:postgresql://h/bg", "postgres.embedded", "true"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("postgres.read-urls: the " + "embedded server");
    }
}
