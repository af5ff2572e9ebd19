package org.bgbench.store.memory;

import java.util.function.BooleanSupplier;

/**
 * Holds the monitors of many accounts at once, for writes and reads that span a member's friends and pages (SR's
 * fan-out under Push, Pull's locked read). Callers pass accounts in ascending account id, the order every multi-member
 * action locks in, so no two actions wait for each other in a cycle. Eight monitors per stack frame keep a page with
 * thousands of followers far from the thread's stack limit.
 */
final class Locks {
    private Locks() {}

    /** Runs {@code body} holding the monitors of {@code a[0..n)} (ascending id, no repeats); returns its result. */
    static boolean holding(Account[] a, int n, BooleanSupplier body) {
        return hold(a, 0, n, body);
    }

    private static boolean hold(Account[] a, int i, int n, BooleanSupplier body) {
        int left = n - i;
        if (left == 0) {
            return body.getAsBoolean();
        }
        if (left < 8) {
            synchronized (a[i]) {
                return hold(a, i + 1, n, body);
            }
        }
        synchronized (a[i]) {
            synchronized (a[i + 1]) {
                synchronized (a[i + 2]) {
                    synchronized (a[i + 3]) {
                        synchronized (a[i + 4]) {
                            synchronized (a[i + 5]) {
                                synchronized (a[i + 6]) {
                                    synchronized (a[i + 7]) {
                                        return hold(a, i + 8, n, body);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
