package org.bgbench.store.memory;

import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;

/** DBIL for the memory store: the image is a deep copy held by the named instance, restored by copying it back. */
final class MemoryImage implements StoreImage {
    private final Instance instance;

    MemoryImage(Instance instance) {
        this.instance = instance;
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
        return image != null && current != null && image.spec.equals(current.spec);
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
