package org.bgbench.model.generator;

/** Receives generated relationships by member index. A pending one runs from inviter to invitee. */
@FunctionalInterface
public interface EdgeVisitor {
    void edge(int inviter, int invitee, boolean confirmed);
}
