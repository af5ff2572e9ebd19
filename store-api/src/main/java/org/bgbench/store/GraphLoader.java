package org.bgbench.store;

/** Writes part of a graph through the store's bulk path. Confined to one loading thread. */
public interface GraphLoader extends AutoCloseable {
    /**
     * Loads members with index in [from, to): each member with attributes and images, the relationships the member
     * starts ({@link org.bgbench.model.generator.SocialGraph#forEachStartedRelationship}), its resources and their
     * comments. Ranges given to different loaders never overlap.
     */
    void load(int from, int to, LoadProgress progress);

    @Override
    void close();
}
