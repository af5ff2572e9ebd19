package org.bgbench.model;

import java.util.Locale;

/**
 * The feed-following part of a graph (dissertation table 3.1 and 5.1): pages, who follows them and what they own.
 * Follows never change during a run (dissertation 6.1.2, footnote 3): only friendships do.
 *
 * @param pages             P, number of pages (0: no pages, no follows)
 * @param pagesPerMember    ϱ, pages each member follows
 * @param followersPerPage  ι, members following each page; 0 derives it as M·ϱ/P, the only value the deterministic
 *                          follow function can produce
 * @param resourcesPerPage  resources each page owns (and posts on its own wall); -1 means ρ, as the dissertation
 */
public record FeedSpec(int pages, int pagesPerMember, int followersPerPage, int resourcesPerPage) {
    /** A graph without pages. */
    public static final FeedSpec NONE = new FeedSpec(0, 0, 0, -1);

    public FeedSpec {
        check(pages >= 0, "pagecount", "must be 0 or more, got " + pages);
        check(pagesPerMember >= 0, "pagesperuser", "must be 0 or more, got " + pagesPerMember);
        check(followersPerPage >= 0, "followersperpage", "must be 0 (derived) or more, got " + followersPerPage);
        check(resourcesPerPage >= -1, "resourcecountperpage", "must be 0 or more, got " + resourcesPerPage);
        check(
                pages > 0 || pagesPerMember == 0,
                "pagesperuser",
                "ϱ=" + pagesPerMember + " needs pages: set pagecount (P) too");
    }

    public boolean hasPages() {
        return pages > 0;
    }

    /** ι as the graph has it: the given one or M·ϱ/P. */
    public int followers(int members) {
        if (pages == 0) {
            return 0;
        }
        return followersPerPage > 0 ? followersPerPage : (int) ((long) members * pagesPerMember / pages);
    }

    public int pageResources(int resourcesPerMember) {
        return resourcesPerPage < 0 ? resourcesPerMember : resourcesPerPage;
    }

    /**
     * The dissertation's feasibility conditions (section 5.1) for M members: ϱ·ι ≤ M, P·ι/ϱ ≤ M, P ≤ M, ϱ ≤ P, ι ≤ M,
     * plus what BG's follow function needs to give every page exactly ι followers: M·ϱ = P·ι and P dividing M.
     */
    void checkFor(int members, int resourcesPerMember) {
        if (pages == 0) {
            return;
        }
        check(
                pages <= members,
                "pagecount",
                "P=" + pages + " must not exceed the number of members M=" + members + " (dissertation 5.1)");
        check(
                pagesPerMember <= pages,
                "pagesperuser",
                "ϱ=" + pagesPerMember + " must not exceed the number of pages P=" + pages + " (dissertation 5.1)");
        check(
                members % pages == 0,
                "pagecount",
                "P=" + pages + " must divide the number of members M=" + members
                        + " so that every page gets the same number of followers; e.g. P="
                        + nearestDivisor(members, pages));
        long iota = (long) members * pagesPerMember / pages;
        if (followersPerPage > 0) {
            check(
                    followersPerPage == iota,
                    "followersperpage",
                    "ι=" + followersPerPage + " cannot be reached: with M="
                            + members + ", P=" + pages + " and ϱ=" + pagesPerMember + " every page has M·ϱ/P=" + iota
                            + " followers (dissertation 5.1: M·ϱ = P·ι); set followersperpage=" + iota
                            + " or change ϱ");
        }
        check(iota <= members, "followersperpage", "ι=" + iota + " must not exceed M=" + members);
        check(
                (long) pagesPerMember * iota <= members,
                "pagesperuser",
                "ϱ·ι=" + (long) pagesPerMember * iota + " must not exceed M=" + members
                        + " (dissertation 5.1); lower ϱ or raise P");
        int rp = pageResources(resourcesPerMember);
        check((long) pages * rp < (1L << 40), "resourcecountperpage", "P × resources per page must stay below 2^40");
    }

    private static int nearestDivisor(int m, int p) {
        for (int d = 0; d < p; d++) {
            if (p - d >= 1 && m % (p - d) == 0) {
                return p - d;
            }
            if (p + d <= m && m % (p + d) == 0) {
                return p + d;
            }
        }
        return 1;
    }

    String fingerprint(int members, int resourcesPerMember) {
        return pages == 0
                ? ""
                : String.format(
                        Locale.ROOT,
                        " pages=%d follows=%d iota=%d pageres=%d",
                        pages,
                        pagesPerMember,
                        followers(members),
                        pageResources(resourcesPerMember));
    }

    private static void check(boolean ok, String parameter, String message) {
        if (!ok) {
            throw new InvalidParameterException(parameter, message);
        }
    }
}
