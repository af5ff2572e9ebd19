package org.bgbench.scaling.speedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScalePlanTest {
    private static final String GOOD = """
            {"store":"postgres","networkMbps":1000,"configurations":[
              {"name":"primary","nodes":1,"settings":{"postgres.url":"jdbc:postgresql://127.0.0.1:5432/bg","postgres.pool":8},
               "storeHosts":["127.0.0.1:9100"],"start":"scripts/x.sh start /tmp/x","settingsCommand":"scripts/x.sh urls /tmp/x",
               "stop":"scripts/x.sh stop /tmp/x"},
              {"name":"two","nodes":2}
            ]}""";

    @Test
    void aGoodPlanIsReadField_byField() {
        ScalePlan p = ScalePlan.parse(GOOD);
        assertThat(p.store()).isEqualTo("postgres");
        assertThat(p.linkBytesPerS()).isEqualTo(125_000_000.0);
        assertThat(p.configurations()).hasSize(2);
        ScalePlan.Configuration c = p.baseline();
        assertThat(c.name()).isEqualTo("primary");
        assertThat(c.nodes()).isEqualTo(1);
        // Numbers become the text a -p key takes; the plan's order is kept.
        assertThat(c.settings())
                .containsExactly(
                        Map.entry("postgres.url", "jdbc:postgresql://127.0.0.1:5432/bg"),
                        Map.entry("postgres.pool", "8"));
        assertThat(c.storeHosts()).containsExactly("127.0.0.1:9100");
        assertThat(c.start()).isEqualTo("scripts/x.sh start /tmp/x");
        assertThat(c.settingsCommand()).isEqualTo("scripts/x.sh urls /tmp/x");
        assertThat(c.stop()).isEqualTo("scripts/x.sh stop /tmp/x");
        ScalePlan.Configuration two = p.configurations().get(1);
        assertThat(two.nodes()).isEqualTo(2);
        assertThat(two.settings()).isEmpty();
        assertThat(two.start()).isNull();
        assertThat(two.withSettings(Map.of("postgres.url", "u")).settings()).containsEntry("postgres.url", "u");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1},{\"name\":\"b\",\"nodes\":0}]}"
                        + "|--plan: configurations[1].nodes: expected a whole number ≥ 1, got 0",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1.5}]}"
                        + "|--plan: configurations[0].nodes: expected a whole number ≥ 1, got 1.5",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\"}]}"
                        + "|--plan: configurations[0].nodes: expected a whole number ≥ 1, got nothing",
                "{\"store\":\"postgres\",\"configurations\":[]}"
                        + "|--plan: configurations: expected a non-empty list of configurations, the first one the baseline",
                "{\"configurations\":[{\"name\":\"a\",\"nodes\":1}]}|--plan: store: missing",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1},{\"name\":\"a\",\"nodes\":2}]}"
                        + "|--plan: configurations[1].name: 'a' is already the name of an earlier configuration",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"../x\",\"nodes\":1}]}"
                        + "|--plan: configurations[0].name: expected letters, digits, '.', '_' or '-' (a directory name), got '../x'",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1,\"nodez\":2}]}"
                        + "|--plan: configurations[0].nodez: unknown field; expected name, nodes, settings, settingsCommand, start, stop, storeHosts",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1,\"storeHosts\":\"h\"}]}"
                        + "|--plan: configurations[0].storeHosts: expected a list of HOST[:PORT] node exporters",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1,\"settings\":{\"k\":[1]}}]}"
                        + "|--plan: configurations[0].settings.k: expected a string, number or boolean",
                "{\"store\":\"postgres\",\"configurations\":[{\"name\":\"a\",\"nodes\":1,\"start\":5}]}"
                        + "|--plan: configurations[0].start: expected a string, got 5",
                "{\"store\":\"postgres\",\"networkMbps\":0,\"configurations\":[{\"name\":\"a\",\"nodes\":1}]}"
                        + "|--plan: networkMbps: expected each node's link speed in Mbit/s, a number > 0, got 0",
                "[1,2]|--plan: expected a JSON object {\"store\": …, \"configurations\": [...]}",
            })
    void aBadPlanNamesItsField(String json, String message) {
        assertThatThrownBy(() -> ScalePlan.parse(json))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage(message);
    }

    @Test
    void brokenJsonSaysWhere() {
        assertThatThrownBy(() -> ScalePlan.parse("{\"store\": \"postgres\",\n  \"configurations\": [ }"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("--plan: not JSON: ")
                .hasMessageContaining("line 2");
    }
}
