package org.bgbench.validation;

/**
 * One bucket of the freshness-confidence curve (dissertation 6.1.3): reads that started between {@code fromMs} and
 * {@code toMs} after the latest write on their item had ended.
 *
 * @param reads           reads in this bucket
 * @param valid           of those, reads that observed a valid value
 * @param p               valid / reads of this bucket ({@code NaN} if it has no reads)
 * @param cumulativeReads reads in this and all earlier buckets
 * @param cumulativeValid valid reads in this and all earlier buckets
 * @param cumulativeP     the dissertation's p_i (eq. 6.1): the probability that a read at most {@code toMs} after the
 *                        update observed a valid value ({@code NaN} while no read has been seen)
 */
public record FreshnessBucket(
        double fromMs,
        double toMs,
        long reads,
        long valid,
        double p,
        long cumulativeReads,
        long cumulativeValid,
        double cumulativeP) {}
