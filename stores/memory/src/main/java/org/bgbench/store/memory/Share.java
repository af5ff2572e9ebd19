package org.bgbench.store.memory;

import java.util.Arrays;

/**
 * One Share Resource (dissertation 3.2), immutable so feeds and images share it without copying. {@code recipients}
 * are member ids, sorted, or null for everyone who follows the sharer. {@code type}, {@code body} and {@code doc} are
 * a copy of the resource's attributes under Push Content (dissertation 8.4.2) and null otherwise: VNF then joins with
 * the resource by id.
 */
final class Share {
    static final Share[] NONE = new Share[0];

    final long id;
    final int sharer;
    final long rid;
    final int[] recipients;
    final String type;
    final String body;
    final String doc;

    Share(long id, int sharer, long rid, int[] recipients, String type, String body, String doc) {
        this.id = id;
        this.sharer = sharer;
        this.rid = rid;
        this.recipients = recipients;
        this.type = type;
        this.body = body;
        this.doc = doc;
    }

    /** Whether member {@code memberId}, while she follows or is a friend of the sharer, sees it. */
    boolean visibleTo(int memberId) {
        return recipients == null || Arrays.binarySearch(recipients, memberId) >= 0;
    }
}
