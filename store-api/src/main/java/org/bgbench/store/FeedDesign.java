package org.bgbench.store;

import java.util.List;
import org.bgbench.model.InvalidParameterException;

/**
 * How a store serves feed following (dissertation 8.4.2), the settings {@code feed.design} and {@code feed.push} that
 * the SQL stores and the Cassandra store share: {@link Kind#PULL} computes a feed at every View News Feed from the
 * shares of the member's friends and followed pages (figure 8.11); {@link Kind#PUSH} and {@link Kind#SORTED_PUSH} keep
 * one feed entry per member and visible share (figure 8.13), written by Share Resource and kept right by Accept Friend
 * Request and Thaw Friendship. {@code content} copies the resource's type, body and doc into the feed entry (Push
 * Content); otherwise an entry references the resource (Push Reference).
 */
public record FeedDesign(Kind kind, boolean content) {
    public static final String DESIGN_KEY = "feed.design";
    public static final String PUSH_KEY = "feed.push";
    public static final FeedDesign PULL = new FeedDesign(Kind.PULL, false);

    public enum Kind {
        PULL("pull"),
        PUSH("push"),
        SORTED_PUSH("sorted-push");

        private final String setting;

        Kind(String setting) {
            this.setting = setting;
        }

        public String setting() {
            return setting;
        }
    }

    public FeedDesign {
        if (kind == Kind.PULL && content) {
            throw new IllegalArgumentException("the pull design keeps no feed rows to copy content into");
        }
    }

    public boolean push() {
        return kind != Kind.PULL;
    }

    /** Recorded in {@code bg_meta} beside the friendship layout: a store loaded for one design is not reused by another. */
    public String describe() {
        return "feed=" + kind.setting + (push() ? (content ? "-content" : "-reference") : "");
    }

    /** The two settings, for a provider's {@code settings()} list. */
    public static List<StoreSetting> settings() {
        return List.of(
                new StoreSetting(
                        DESIGN_KEY,
                        "pull",
                        "feed following (dissertation 8.4.2): pull = VNF computes the feed from friends' and followed "
                                + "pages' shares; push = SR writes a feed row per viewer, VNF reads the whole feed and "
                                + "sorts it; sorted-push = feed rows kept in share-id order, VNF reads the top k"),
                new StoreSetting(
                        PUSH_KEY,
                        "reference",
                        "push designs only: reference = feed rows point at the resource (joined at VNF); content = "
                                + "feed rows carry the resource's type, body and doc"));
    }

    /** Reads the two settings; a bad value fails with the key and the values accepted. */
    public static FeedDesign from(StoreSettings s) {
        String design = s.getChoice(DESIGN_KEY, "pull", "pull", "push", "sorted-push");
        String push = s.getChoice(PUSH_KEY, "reference", "reference", "content");
        Kind kind = switch (design) {
            case "push" -> Kind.PUSH;
            case "sorted-push" -> Kind.SORTED_PUSH;
            default -> Kind.PULL;
        };
        boolean content = push.equals("content");
        if (kind == Kind.PULL && content) {
            throw new InvalidParameterException(
                    PUSH_KEY,
                    "content applies to " + DESIGN_KEY
                            + "=push or sorted-push (pull keeps no feed rows); drop it or set " + DESIGN_KEY);
        }
        return new FeedDesign(kind, content);
    }
}
