package org.bgbench.model.generator;

/** How two members are related, seen from the first of the pair. */
public enum Relation {
    NONE,
    FRIENDS,
    /** The first member invited the second; not yet answered. */
    INVITED,
    /** The second member invited the first; not yet answered. */
    INVITED_BY
}
