package org.bgbench.store.memory;

/**
 * A page (dissertation 5.1): an account members follow. Its name, wall and followers are written once by the loader
 * (follows never change in a run), so readers use them without synchronisation; its shares change under this
 * object's monitor and sequence lock.
 */
final class Page extends Account {
    final int id;
    final String name;
    /** Member ids of the followers, ascending. */
    final int[] followers;

    Page(int id, String name, Resource[] wall, int[] followers) {
        this.id = id;
        this.name = name;
        this.wall = wall;
        this.followers = followers;
    }

    /** A copy for images: the wall's resources never get comments, so they are shared like the followers. */
    Page copy() {
        Page p = new Page(id, name, wall, followers);
        synchronized (this) {
            copySharesTo(p);
        }
        return p;
    }
}
