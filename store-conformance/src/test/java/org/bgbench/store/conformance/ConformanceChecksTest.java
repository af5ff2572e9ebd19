package org.bgbench.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The suite's @Test methods and the matrix's list of checks name the same checks, so neither misses one. */
class ConformanceChecksTest {
    @Test
    void theSuiteAndTheMatrixRunTheSameChecks() {
        List<String> suite = Arrays.stream(StoreConformanceSuite.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Test.class))
                .map(Method::getName)
                .toList();
        List<String> matrix = ConformanceChecks.all().stream()
                .map(ConformanceChecks.Check::name)
                .toList();
        assertThat(matrix).doesNotHaveDuplicates().hasSize(24);
        assertThat(suite).containsExactlyInAnyOrderElementsOf(matrix);
    }
}
