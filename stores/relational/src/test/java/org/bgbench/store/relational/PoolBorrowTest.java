package org.bgbench.store.relational;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A session asks its pool again after each slice, and gives up at once when asking again cannot help. */
class PoolBorrowTest {
    private static final Connection CONNECTION = (Connection) Proxy.newProxyInstance(
            PoolBorrowTest.class.getClassLoader(), new Class<?>[] {Connection.class}, (p, m, a) -> null);

    /** A pool that times out {@code misses} times (as Hikari does when its adder missed the borrower), then gives one. */
    private static PoolBorrow.Pool missing(int misses, AtomicInteger calls) {
        return () -> {
            if (calls.incrementAndGet() <= misses) {
                throw new SQLTransientConnectionException("bg - Connection is not available, request timed out");
            }
            return CONNECTION;
        };
    }

    @Test
    void aPoolThatTimesOutIsAskedAgainUntilItGivesAConnection() throws SQLException {
        AtomicInteger calls = new AtomicInteger();
        assertThat(PoolBorrow.borrow(missing(3, calls), Duration.ofSeconds(30))).isSameAs(CONNECTION);
        assertThat(calls).hasValue(4);
    }

    @Test
    void afterTheWholeTimeoutThePoolsTimeoutIsThrown() {
        AtomicInteger calls = new AtomicInteger();
        long start = System.nanoTime();
        assertThatThrownBy(() -> PoolBorrow.borrow(missing(Integer.MAX_VALUE, calls), Duration.ofMillis(50)))
                .isInstanceOf(SQLTransientConnectionException.class);
        assertThat(System.nanoTime() - start)
                .as("gave up only after the timeout")
                .isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
        assertThat(calls.get()).isGreaterThan(1);
    }

    @Test
    void aServerThatRefusedOrAnotherFailureIsThrownAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        SQLTransientConnectionException refused = new SQLTransientConnectionException(
                "timed out", new SQLException("Too many connections", "08004", 1040));
        assertThatThrownBy(() -> PoolBorrow.borrow(
                        () -> {
                            calls.incrementAndGet();
                            throw refused;
                        },
                        Duration.ofSeconds(30)))
                .isSameAs(refused);
        assertThat(calls).hasValue(1);
        SQLException broken = new SQLException("Access denied", "28000", 1045);
        assertThatThrownBy(() -> PoolBorrow.borrow(
                        () -> {
                            calls.incrementAndGet();
                            throw broken;
                        },
                        Duration.ofSeconds(30)))
                .isSameAs(broken);
        assertThat(calls).hasValue(2);
    }

    @Test
    void theSliceIsASecondAtMostAndNeverBelowHikarisMinimum() {
        assertThat(PoolBorrow.sliceMillis(Duration.ofSeconds(30))).isEqualTo(1000);
        assertThat(PoolBorrow.sliceMillis(Duration.ofMillis(400))).isEqualTo(400);
        assertThat(PoolBorrow.sliceMillis(Duration.ofMillis(100))).isEqualTo(250);
        assertThat(PoolBorrow.validationMillis(Duration.ofSeconds(30))).isEqualTo(1000);
        assertThat(PoolBorrow.validationMillis(Duration.ofMillis(800))).isEqualTo(400);
        assertThat(PoolBorrow.validationMillis(Duration.ofMillis(100))).isEqualTo(250);
    }
}
