package org.bgbench.store.mariadb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.bgbench.model.Action;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.relational.ReadReplicas;
import org.junit.jupiter.api.Test;

/** {@code mariadb.read-urls} and {@code mariadb.read-actions}: parsing, defaults, refusals (no server needed). */
class MariadbReplicaSettingsTest {
    private final MariadbStoreProvider provider = new MariadbStoreProvider();

    private ReadReplicas replicas(String... keyValues) {
        Map<String, String> given = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            given.put(keyValues[i], keyValues[i + 1]);
        }
        return MariadbStoreProvider.config(StoreSettings.forProvider(provider, given))
                .replicas();
    }

    @Test
    void noReplicasByDefaultAndEveryReadActionWithReadUrls() {
        assertThat(replicas().routes()).isFalse();
        assertThat(provider.settings()).extracting(s -> s.key()).contains("mariadb.read-urls", "mariadb.read-actions");
        ReadReplicas r = replicas("mariadb.read-urls", "jdbc:mariadb://127.0.0.3:3318/bg");
        assertThat(r.urls()).containsExactly("jdbc:mariadb://127.0.0.3:3318/bg");
        assertThat(r.actions())
                .containsExactlyInAnyOrder(Action.VP, Action.LF, Action.VFR, Action.VTR, Action.VCR, Action.VNF);
        assertThat(replicas("mariadb.read-urls", "jdbc:mariadb://h/bg", "mariadb.read-actions", "VNF,vcr")
                        .actions())
                .containsExactlyInAnyOrder(Action.VNF, Action.VCR);
        assertThat(replicas("mariadb.read-urls", "jdbc:mariadb://h/bg", "mariadb.read-actions", "none")
                        .routes())
                .isFalse();
    }

    @Test
    void badValuesAreRefusedWithOneLineNamingTheKey() {
        assertThatThrownBy(() -> replicas("mariadb.read-urls", "jdbc:postgresql://h/bg"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("mariadb.read-urls: expected comma-separated JDBC URLs starting with jdbc:mariadb://, got "
                        + "'jdbc:postgresql://h/bg'");
        assertThatThrownBy(() -> replicas("mariadb.read-urls", "jdbc:mariadb://h/bg", "mariadb.read-actions", "SR"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage(
                        "mariadb.read-actions: expected all, none or a comma list of read actions VP, LF, VFR, VTR, "
                                + "VCR, VNF, got 'SR'");
        assertThatThrownBy(() -> replicas("mariadb.read-actions", "all"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("mariadb.read-actions: applies only with mariadb.read-urls");
    }
}
