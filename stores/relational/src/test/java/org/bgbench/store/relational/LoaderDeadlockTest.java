package org.bgbench.store.relational;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import org.junit.jupiter.api.Test;

/** Which failures of a flush the loader sends again: deadlocks only, however deep the driver wraps them. */
class LoaderDeadlockTest {
    @Test
    void aDeadlockIsRecognisedThroughTheDriversWrappers() {
        SQLException mariadb = new BatchUpdateException(
                "(conn=84) Deadlock found",
                "HY000",
                0,
                new int[0],
                new BatchUpdateException(
                        "pipeline",
                        "HY000",
                        0,
                        new int[0],
                        new SQLTransactionRollbackException("Deadlock found when trying to get lock", "40001", 1213)));
        assertThat(RelationalLoader.deadlock(mariadb)).isTrue();
        assertThat(RelationalLoader.deadlock(new SQLException("deadlock detected", "40P01")))
                .as("PostgreSQL")
                .isTrue();
        assertThat(RelationalLoader.deadlock(new SQLException("x", "HY000", 1213)))
                .as("MySQL's code")
                .isTrue();
    }

    @Test
    void otherFailuresAreNotRetried() {
        assertThat(RelationalLoader.deadlock(new SQLException("duplicate key", "23505")))
                .isFalse();
        assertThat(RelationalLoader.deadlock(new BatchUpdateException(
                        "disk full", "53100", 0, new int[0], new SQLException("could not extend file", "53100"))))
                .isFalse();
        assertThat(RelationalLoader.deadlock(new RuntimeException("no cause"))).isFalse();
    }
}
