package org.bgbench.store.memory;

import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.StoreSettings;

/**
 * How the store answers View News Feed (dissertation 8.4.2): computed at read time (Pull), or kept per member and
 * maintained by SR, AFR and TF (Push, read whole and sorted; Sorted-insert Push, kept sorted and read top k).
 * {@code content} (Push Content) copies the resource's attributes into the share the feeds hold; otherwise (Push
 * Reference) VNF joins each entry with the sharer's resource.
 */
record FeedDesign(Kind kind, boolean content) {
    enum Kind {
        PULL,
        PUSH,
        SORTED_PUSH
    }

    static final String DESIGN_KEY = "feed.design";
    static final String PUSH_KEY = "feed.push";
    static final FeedDesign DEFAULT = new FeedDesign(Kind.PULL, false);

    /** Reads both settings; a bad value is a one-line {@link InvalidParameterException}. */
    static FeedDesign of(StoreSettings settings) {
        Kind kind = switch (settings.getChoice(DESIGN_KEY, "pull", "pull", "push", "sorted-push")) {
            case "push" -> Kind.PUSH;
            case "sorted-push" -> Kind.SORTED_PUSH;
            default -> Kind.PULL;
        };
        boolean content = settings.getChoice(PUSH_KEY, "reference", "reference", "content")
                .equals("content");
        return new FeedDesign(kind, content);
    }

    boolean pushes() {
        return kind != Kind.PULL;
    }

    /** Whether shares carry a copy of the resource's attributes (only Push Content). */
    boolean copiesContent() {
        return pushes() && content;
    }

    @Override
    public String toString() {
        String k = switch (kind) {
            case PULL -> "pull";
            case PUSH -> "push";
            case SORTED_PUSH -> "sorted-push";
        };
        return pushes() ? k + "/" + (content ? "content" : "reference") : k;
    }
}
