package org.bgbench.store.relational;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.junit.jupiter.api.Test;

class PhysicalDesignTest {
    private static final Path DEFAULT_DIR = Path.of("/tmp/bg-default-images");

    private static PhysicalDesign parse(Map<String, String> values) {
        return PhysicalDesign.from(StoreSettings.of(values), DEFAULT_DIR);
    }

    @Test
    void defaultsAreCikmsBasicDesign() {
        assertThat(parse(Map.of())).isEqualTo(PhysicalDesign.BASIC);
        assertThat(PhysicalDesign.BASIC.describe()).isEqualTo("friendship.tables=1 counts=query images=inline");
    }

    @Test
    void readsEverySetting() {
        PhysicalDesign boosted = parse(Map.of("friendship.tables", "2", "counts", "attributes", "images", "fs"));
        assertThat(boosted).isEqualTo(new PhysicalDesign(2, true, true, DEFAULT_DIR));
        assertThat(boosted.describe()).isEqualTo("friendship.tables=2 counts=attributes images=fs");
        assertThat(parse(Map.of("images", "fs", "images.dir", "/tmp/x")).imagesDir())
                .isEqualTo(Path.of("/tmp/x"));
    }

    @Test
    void aBadValueFailsWithOneLineNamingTheKeyAndTheAcceptedValues() {
        assertThatThrownBy(() -> parse(Map.of("friendship.tables", "3")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("friendship.tables: expected one of 1, 2, got '3'");
        assertThatThrownBy(() -> parse(Map.of("counts", "view")))
                .hasMessage("counts: expected one of query, attributes, got 'view'");
        assertThatThrownBy(() -> parse(Map.of("images", "gridfs")))
                .hasMessage("images: expected one of inline, fs, got 'gridfs'");
        assertThatThrownBy(() -> parse(Map.of("images.dir", "/tmp/x")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("images.dir: applies only to images=fs")
                .hasMessageNotContaining("\n");
    }

    @Test
    void settingsListTheKeysWithTheirDefaults() {
        assertThat(PhysicalDesign.settings("somewhere"))
                .extracting(StoreSetting::key)
                .containsExactly("friendship.tables", "counts", "images", "images.dir");
        assertThat(PhysicalDesign.settings("somewhere"))
                .extracting(StoreSetting::defaultValue)
                .containsExactly("1", "query", "inline", null);
        assertThat(PhysicalDesign.settings("somewhere").get(3).description()).contains("somewhere");
    }

    @Test
    void theDesignStringHoldsEverySetting() {
        RelationalSchema basic = new RelationalSchema(3, 1);
        assertThat(basic.design())
                .isEqualTo("basic friendship.rows=1 friendship.tables=1 counts=query images=inline" + " feed=pull");
        assertThat(new RelationalSchema(3, 2, FeedDesign.PULL, false, new PhysicalDesign(2, true, true, DEFAULT_DIR))
                        .design())
                .isEqualTo("basic friendship.rows=2 friendship.tables=2 counts=attributes images=fs feed=pull");
    }
}
