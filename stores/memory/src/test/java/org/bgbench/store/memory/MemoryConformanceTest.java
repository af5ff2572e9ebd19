package org.bgbench.store.memory;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ConformanceMatrix;
import org.bgbench.store.conformance.ConformanceTarget;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The conformance suite on the memory store, every feed design (dissertation 8.4.2): pull; Push, feeds of references
 * joined at VNF; Push Content, feeds holding copies of the resources; Sorted-insert Push, feeds kept sorted so VNF
 * reads the top k, by reference and with content.
 */
class MemoryConformanceTest {
    @TestFactory
    Stream<DynamicNode> conformance() {
        return ConformanceMatrix.of(
                        variant("pull", Map.of()),
                        variant(
                                "push-reference",
                                Map.of(FeedDesign.DESIGN_KEY, "push", FeedDesign.PUSH_KEY, "reference")),
                        variant("push-content", Map.of(FeedDesign.DESIGN_KEY, "push", FeedDesign.PUSH_KEY, "content")),
                        variant(
                                "sorted-push-reference",
                                Map.of(FeedDesign.DESIGN_KEY, "sorted-push", FeedDesign.PUSH_KEY, "reference")),
                        variant(
                                "sorted-push-content",
                                Map.of(FeedDesign.DESIGN_KEY, "sorted-push", FeedDesign.PUSH_KEY, "content")))
                .tests();
    }

    /**
     * A variant on a named instance of its own (a unique name gives a fresh instance, independent of other tests in
     * this JVM), reopened by name with the same design: the instance outlives a handle, not the JVM.
     */
    private static ConformanceTarget variant(String name, Map<String, String> design) {
        Map<String, String> settings = new HashMap<>(design);
        settings.put(MemoryStoreProvider.NAME_KEY, "conformance-" + name + "-" + UUID.randomUUID());
        return ConformanceTarget.of(name, () -> open(settings)).reopenable();
    }

    private static DataStore open(Map<String, String> settings) {
        return new MemoryStoreProvider().open(StoreSettings.of(settings));
    }
}
