package org.bgbench.store;

import java.util.Optional;

/**
 * The state mark a store holds for BG ({@link DataStore#stateMark()}): which of BG's expected states the store's
 * contents match, so that BG never starts a run from a state the store does not hold. A mark is one line of text
 * {@code <kind>:<value>}:
 *
 * <ul>
 *   <li>{@code loaded:<fingerprint>} — the generated graph with this {@link org.bgbench.model.GraphSpec#fingerprint()}
 *       and nothing else: written by {@link DataStore#finishLoad} and after a verified repair;</li>
 *   <li>{@code state:<token>} — the state BG saved under this token when a run with writes ended (its file is
 *       {@code <token>.state} in BG's state directory);</li>
 *   <li>{@code running:<what>} — a run (or a repair) started writing and has not ended: what the store holds is
 *       unknown to BG. The value says what started and when, for the message a user sees.</li>
 * </ul>
 *
 * @param kind  what the store holds
 * @param value the fingerprint, the token or the description of the run
 */
public record StateMark(Kind kind, String value) {
    /** What a mark says the store holds. */
    public enum Kind {
        LOADED("loaded"),
        STATE("state"),
        RUNNING("running");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }

        public String prefix() {
            return prefix;
        }
    }

    public StateMark {
        if (kind == null || value == null || value.isEmpty() || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a state mark needs a kind and a one-line value");
        }
    }

    /** The mark of a store that holds exactly the generated graph with this fingerprint. */
    public static StateMark loaded(String fingerprint) {
        return new StateMark(Kind.LOADED, fingerprint);
    }

    /** The mark of a store that holds the state BG saved under {@code token}. */
    public static StateMark state(String token) {
        return new StateMark(Kind.STATE, token);
    }

    /** The mark of a store that a run is writing to; {@code what} says which run and since when. */
    public static StateMark running(String what) {
        return new StateMark(Kind.RUNNING, what);
    }

    /** The mark as a store keeps it: {@code kind:value}. */
    public String text() {
        return kind.prefix() + ":" + value;
    }

    /** A mark read from a store; empty when the text is not one BG writes (the store was changed by hand?). */
    public static Optional<StateMark> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        int colon = text.indexOf(':');
        if (colon < 0 || colon == text.length() - 1) {
            return Optional.empty();
        }
        String prefix = text.substring(0, colon);
        for (Kind k : Kind.values()) {
            if (k.prefix().equals(prefix)) {
                return Optional.of(new StateMark(k, text.substring(colon + 1)));
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return text();
    }
}
