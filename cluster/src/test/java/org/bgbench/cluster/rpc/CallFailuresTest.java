package org.bgbench.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Metadata;
import io.grpc.Status;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import org.bgbench.cluster.rpc.WorkerException.Kind;
import org.junit.jupiter.api.Test;

class CallFailuresTest {

    private static WorkerException busySince(long epochMilli) {
        Metadata trailers = new Metadata();
        trailers.put(Protocol.REFUSAL, Protocol.REFUSAL_BUSY);
        trailers.put(Protocol.HOLDER, "10.0.0.9");
        trailers.put(Protocol.HOLDER_SINCE, Long.toString(epochMilli));
        Throwable refusal = Status.FAILED_PRECONDITION
                .withDescription("this worker is serving another coordinator")
                .asRuntimeException(trailers);
        return new CallFailures("10.0.0.2:7420", null).failure("ping", refusal, true, true, Duration.ofSeconds(5));
    }

    @Test
    void aSessionThatBeganOnAWholeMinuteStillShowsItsSeconds() {
        long today = LocalDate.now()
                .atTime(LocalTime.of(9, 42, 0))
                .atZone(ZoneId.systemDefault())
                .toInstant()
                .toEpochMilli();
        WorkerException busy = busySince(today);
        assertThat(busy.kind()).isEqualTo(Kind.BUSY);
        assertThat(busy)
                .hasMessage("worker 10.0.0.2:7420 is serving another coordinator (10.0.0.9, since 09:42:00);"
                        + " stop it or wait");
    }

    @Test
    void aSessionFromAnotherDayShowsTheDate() {
        long earlier = LocalDate.of(2026, 1, 5)
                .atTime(LocalTime.of(23, 0, 0))
                .atZone(ZoneId.systemDefault())
                .toInstant()
                .toEpochMilli();
        assertThat(busySince(earlier)).hasMessageContaining("(10.0.0.9, since 2026-01-05 23:00:00)");
    }
}
