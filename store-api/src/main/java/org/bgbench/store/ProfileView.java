package org.bgbench.store;

/** Output of View Profile; reused by one thread across calls. */
public final class ProfileView {
    public int memberId;
    public final Attributes attributes;
    public byte[] profileImage;
    public int friendCount;
    public int resourceCount;
    /** Pending invitations received; -1 unless the member viewed her own profile. */
    public int pendingCount;

    public ProfileView(int attributeCount) {
        this.attributes = new Attributes(attributeCount);
        clear();
    }

    public void clear() {
        memberId = -1;
        profileImage = null;
        friendCount = -1;
        resourceCount = -1;
        pendingCount = -1;
        attributes.clear();
    }
}
