package org.bgbench.store.relational;

import java.nio.file.Path;
import java.util.List;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;

/**
 * The physical design choices of CIKM 2013 sections C–E that every SQL store offers as settings, beside
 * {@code friendship.rows} and the feed design:
 *
 * <ul>
 *   <li>{@code friendship.tables}: 1 = one {@code friendship} table with a status column (figure 1, table 2); 2 =
 *       confirmed friendships in {@code friends(frdid1, frdid2)} and pending invitations in
 *       {@code pending(inviterid, inviteeid)}, no status (figure 8, table 3, section D.1);</li>
 *   <li>{@code counts}: query = View Profile counts friends, pending invitations and resources by aggregate
 *       subqueries (Basic); attributes = {@code members} carries {@code friendcount}, {@code pendingcount} and
 *       {@code resourcecount}, kept by the friendship writes in their transaction (section E.1, "Manual");</li>
 *   <li>{@code images}: inline = profile image and thumbnail are BLOB columns of {@code members}; fs = the profile image
 *       is a file under {@code imagesDir} and {@code members.picpath} names it, the thumbnail stays inline (section C:
 *       thumbnails outside the row ruin List Friends).</li>
 * </ul>
 *
 * @param imagesDir where {@code images=fs} keeps the profile images; null with {@code images=inline}
 */
public record PhysicalDesign(int friendshipTables, boolean countAttributes, boolean imagesInFiles, Path imagesDir) {
    public static final String TABLES_KEY = "friendship.tables";
    public static final String COUNTS_KEY = "counts";
    public static final String IMAGES_KEY = "images";
    public static final String IMAGES_DIR_KEY = "images.dir";
    /** CIKM figure 1's Basic design: one friendship table, counts by query, images inline. */
    public static final PhysicalDesign BASIC = new PhysicalDesign(1, false, false, null);

    public PhysicalDesign {
        if (friendshipTables != 1 && friendshipTables != 2) {
            throw new IllegalArgumentException("friendship tables must be 1 or 2, got " + friendshipTables);
        }
        if (imagesInFiles && imagesDir == null) {
            throw new IllegalArgumentException("images in files need a directory");
        }
        imagesDir = imagesInFiles ? imagesDir.toAbsolutePath().normalize() : null;
    }

    public boolean twoTables() {
        return friendshipTables == 2;
    }

    /**
     * Recorded in {@code bg_meta} with the rest of the design, so a store loaded under one design reports no loaded
     * graph under another. The image directory is not part of it: {@link ImageFiles}' marker covers where the files
     * are.
     */
    public String describe() {
        return TABLES_KEY + "=" + friendshipTables + " " + COUNTS_KEY + "=" + (countAttributes ? "attributes" : "query")
                + " " + IMAGES_KEY + "=" + (imagesInFiles ? "fs" : "inline");
    }

    /** The four settings, for a provider's {@code settings()} list. */
    public static List<StoreSetting> settings(String imagesDirDefault) {
        return List.of(
                new StoreSetting(
                        TABLES_KEY,
                        "1",
                        "friendship tables (CIKM 2013 section D.1): 1 = one table with a status column; 2 = confirmed "
                                + "friendships in friends(frdid1, frdid2), pending invitations in "
                                + "pending(inviterid, inviteeid); combines with friendship.rows"),
                new StoreSetting(
                        COUNTS_KEY,
                        "query",
                        "View Profile's counts (CIKM 2013 section E.1): query = aggregate subqueries at every VP; "
                                + "attributes = friendcount, pendingcount, resourcecount columns of members, kept up "
                                + "to date by IF, AFR, RFR and TF in their transaction"),
                new StoreSetting(
                        IMAGES_KEY,
                        "inline",
                        "profile images (CIKM 2013 section C): inline = BLOB column of members; fs = one file per "
                                + "member under images.dir, the member row holding its path; thumbnails stay inline"),
                StoreSetting.of(
                        StoreSetting.Kind.DIRECTORY,
                        IMAGES_DIR_KEY,
                        null,
                        "images=fs only: directory of the profile image files; default " + imagesDirDefault));
    }

    /**
     * Reads the settings; a bad value fails with the key and the values accepted.
     *
     * @param defaultImagesDir the store's directory for image files when {@code images.dir} is not given
     */
    public static PhysicalDesign from(StoreSettings s, Path defaultImagesDir) {
        int tables = Integer.parseInt(s.getChoice(TABLES_KEY, "1", "1", "2"));
        boolean attributes =
                s.getChoice(COUNTS_KEY, "query", "query", "attributes").equals("attributes");
        boolean fs = s.getChoice(IMAGES_KEY, "inline", "inline", "fs").equals("fs");
        String dir = s.get(IMAGES_DIR_KEY);
        if (dir != null && !dir.isBlank() && !fs) {
            throw new InvalidParameterException(
                    IMAGES_DIR_KEY,
                    "applies only to " + IMAGES_KEY + "=fs (inline images "
                            + "have no files), got '" + dir + "' with " + IMAGES_KEY + "=inline; drop it or add -p "
                            + IMAGES_KEY + "=fs");
        }
        Path imagesDir = dir == null || dir.isBlank() ? defaultImagesDir : Path.of(dir.trim());
        return new PhysicalDesign(tables, attributes, fs, fs ? imagesDir : null);
    }

    /** {@code ~/.bg/images/<store>-<database>}: the default image directory of a server store. */
    public static Path defaultServerImagesDir(String store, String database) {
        String name = (store + "-" + database).replaceAll("[^A-Za-z0-9._-]", "_");
        return Path.of(System.getProperty("user.home"), ".bg", "images", name);
    }
}
