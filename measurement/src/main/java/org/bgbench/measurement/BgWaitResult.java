package org.bgbench.measurement;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * Time emulator threads waited inside BG (member locks, searching for a free socialite) during the measured period.
 *
 * @param totalMs      summed over all threads, ms
 * @param count        waits recorded
 * @param actionTimeMs summed latency of all actions (completed and failed), ms: the time threads spent in the store
 * @param fraction     totalMs / actionTimeMs, null when no action time
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record BgWaitResult(double totalMs, long count, double actionTimeMs, Double fraction) {}
