package org.bgbench.model;

import java.util.List;
import java.util.Optional;

/**
 * What an emulated member issues in one request: one {@link Action} or one {@link SessionType}. This is BG's one
 * vocabulary for them; mixes, the emulator, recorders, histograms and results all number them by {@link #index()}.
 *
 * <p>The index is dense and derived, never written down: the actions by {@link Action} ordinal, then the sessions by
 * {@link SessionType} ordinal. Adding an action to the end of {@link Action} therefore moves the sessions up by one
 * without anything to renumber by hand; code that needs the number of actions asks {@link Action#count()}.
 */
public sealed interface Kind permits Action, SessionType {
    /** Position in {@link #all()}: 0 ≤ index &lt; {@link #count()}. */
    int index();

    /** The short name used as the key of results and summaries: {@code VP} for an action, {@code VSP} for a session. */
    String code();

    /** The human-readable name: {@code View Profile}, {@code ViewFrndProfile}. */
    String title();

    /** The frequency key of USC BG's workload files, e.g. {@code ViewProfileAction}, {@code ViewSelfProfileSession}. */
    String uscKey();

    /** Whether issuing it can change the graph: a write action, or a session that contains one. */
    boolean isWrite();

    default boolean isAction() {
        return this instanceof Action;
    }

    /** Number of kinds: every action, then every session. */
    static int count() {
        return KindTable.ALL.length;
    }

    /** The kind with {@code index}; an allocation-free array lookup for the hot path. */
    static Kind byIndex(int index) {
        return KindTable.ALL[index];
    }

    /** Whether {@code index} is an action's (sessions come after every action). */
    static boolean isAction(int index) {
        return index < Action.count();
    }

    /** Every kind in index order. */
    static List<Kind> all() {
        return KindTable.LIST;
    }

    /** The kind whose {@link #code()} is exactly {@code code}. */
    static Optional<Kind> byCode(String code) {
        return Optional.ofNullable(KindTable.BY_CODE.get(code));
    }

    /**
     * The kind a USC BG frequency key stands for, in any case, including the dissertation's session spellings that
     * {@link SessionType#keyAliases()} lists.
     */
    static Optional<Kind> byUscKey(String key) {
        return Optional.ofNullable(KindTable.BY_LOWER_USC_KEY.get(KindTable.lower(key)));
    }
}
