package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FormatTest {

    @Test
    void settingsAreKeyEqualsValuePairs() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("counts", "query");
        settings.put("sqlite.path", "bg-data/sqlite/bg.db");
        assertThat(Format.settings(settings)).isEqualTo("counts=query sqlite.path=bg-data/sqlite/bg.db");
    }
}
