package org.bgbench.store;

/** The names stores give a member's string attributes: USC BG's for the first eleven, then attr11, attr12, ... */
public final class MemberAttributes {
    private static final String[] USC = {
        "username", "pw", "firstname", "lastname", "gender", "dob", "jdate", "ldate", "address", "email", "tel"
    };

    private MemberAttributes() {}

    /** The name of attribute {@code i} (0-based). */
    public static String name(int i) {
        return i < USC.length ? USC[i] : "attr" + i;
    }
}
