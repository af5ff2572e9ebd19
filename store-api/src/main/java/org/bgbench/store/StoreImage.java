package org.bgbench.store;

/**
 * Optional fast restore by the store's own means (database image, DBIL (dissertation 7.2)): snapshot a freshly loaded store
 * once, restore it before each experiment instead of reloading. An image holds the store's whole contents, its state
 * mark ({@link DataStore#stateMark()}) included: {@link #restore()} brings back the mark it was saved with.
 */
public interface StoreImage {
    /** Saves the current contents as the image; replaces an earlier image. */
    void save();

    /** Whether an image of the currently declared graph exists. */
    boolean exists();

    /** Replaces the store's contents with the image. */
    void restore();
}
