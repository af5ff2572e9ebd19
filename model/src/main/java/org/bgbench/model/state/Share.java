package org.bgbench.model.state;

import java.util.Arrays;

/**
 * One Share Resource (dissertation 3.2): account {@code account} (member or page index, see
 * {@link org.bgbench.model.generator.SocialGraph#accountId}) shared its resource {@code resource} as share {@code id}
 * with all its friends or followers ({@code recipients} null) or with exactly the members {@code recipients} (member
 * indexes, sorted). Share ids order shares by recency: a larger id is a more recent share.
 */
public record Share(long id, int account, long resource, int[] recipients) {
    public boolean isPublic() {
        return recipients == null;
    }

    /** Whether member {@code index}, if she follows or is a friend of the sharer, sees it. */
    public boolean visibleTo(int index) {
        return recipients == null || Arrays.binarySearch(recipients, index) >= 0;
    }
}
