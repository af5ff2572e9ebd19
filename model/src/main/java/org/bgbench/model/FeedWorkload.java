package org.bgbench.model;

/**
 * How a run issues the feed-following actions (dissertation 3.2, 8.4).
 *
 * @param k                 k of View News Feed: the most recent shares it shows (the dissertation's figures use 10)
 * @param pageShareFraction fraction of Share Resource actions a page issues instead of the member (the
 *                          dissertation's figures 8.12–8.19: 1 %); the page is one the member follows
 * @param listFraction      fraction of shares made with a list of recipients instead of publicly (BG's choice:
 *                          the dissertation does not give one)
 * @param listSize          recipients of a list share, drawn from the sharer's friends or followers at share time
 */
public record FeedWorkload(int k, double pageShareFraction, double listFraction, int listSize) {
    public static final FeedWorkload DEFAULTS = new FeedWorkload(10, 0.01, 0.1, 10);

    public FeedWorkload {
        check(k >= 1, "feedk", "must be at least 1, got " + k);
        check(
                pageShareFraction >= 0 && pageShareFraction <= 1,
                "pageshareratio",
                "must be a fraction from 0 to 1, got " + pageShareFraction);
        check(
                listFraction >= 0 && listFraction <= 1,
                "sharelistratio",
                "must be a fraction from 0 to 1, got " + listFraction);
        check(listSize >= 1, "sharelistsize", "must be at least 1, got " + listSize);
    }

    private static void check(boolean ok, String key, String message) {
        if (!ok) {
            throw new InvalidParameterException(key, message);
        }
    }
}
