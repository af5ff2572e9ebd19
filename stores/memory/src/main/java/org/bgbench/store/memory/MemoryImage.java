package org.bgbench.store.memory;

import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;

/**
 * DBIL for the memory store: the image is a deep copy held by the named instance, restored by copying it back. It
 * carries shares and pushed feeds, and serves only handles of the feed design it was saved with.
 */
final class MemoryImage implements StoreImage {
    private final Instance instance;
    private final FeedDesign design;

    MemoryImage(Instance instance, FeedDesign design) {
        this.instance = instance;
        this.design = design;
    }

    /** Copies the current contents; each member is copied atomically, so save while no actions run. */
    @Override
    public void save() {
        instance.image = instance.requireDb().copy();
    }

    @Override
    public boolean exists() {
        Db image = instance.image;
        Db current = instance.db;
        return image != null && current != null && image.spec.equals(current.spec) && image.design.equals(design);
    }

    /** Replaces the contents with a fresh copy of the image, which stays intact for the next restore. */
    @Override
    public void restore() {
        Db image = instance.image;
        if (image == null) {
            throw new StoreException("memory store '" + instance.name + "' has no saved image to restore");
        }
        instance.db = image.copy();
    }
}
