package org.bgbench.store.relational;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.bgbench.store.StoreException;

/**
 * The profile images of {@code images=fs} (CIKM 2013 section C): one file per member, {@code <dir>/<id / 1000>/<id>.img},
 * so no directory holds more than a thousand files. {@code members.picpath} holds the path relative to the directory.
 *
 * <p>A marker file, {@code bg-images}, names the graph whose images the directory holds. It is removed before a load
 * writes any file and written by {@code finishLoad} after every loader closed, before the fingerprint: a store whose
 * directory lacks the marker (moved, deleted, half written, or rewritten for another graph) reports no loaded graph,
 * so BG reloads instead of serving missing or foreign images.
 */
public final class ImageFiles {
    private static final String MARKER = "bg-images";
    private final Path dir;

    public ImageFiles(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    /** The path {@code members.picpath} holds for member {@code userid}. */
    public static String relativePath(int userid) {
        return Math.floorDiv(userid, 1000) + "/" + userid + ".img";
    }

    /** Writes member {@code userid}'s profile image; returns its relative path. */
    public String write(int userid, byte[] image) {
        String relative = relativePath(userid);
        Path file = dir.resolve(relative);
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, image);
        } catch (IOException e) {
            throw new StoreException("cannot write profile image " + file + ": " + e, e);
        }
        return relative;
    }

    /** The image at {@code relative}; a missing file is the store's failure, not an empty answer. */
    public byte[] read(String relative) {
        Path file = dir.resolve(relative);
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new StoreException(
                    "profile image " + file + " is missing (images=fs; was " + dir
                            + " deleted or moved? reload the graph)",
                    e);
        } catch (IOException e) {
            throw new StoreException("cannot read profile image " + file + ": " + e, e);
        }
    }

    /** Before a load: the directory no longer vouches for any graph. */
    public void forget() {
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(dir.resolve(MARKER));
        } catch (IOException e) {
            throw new StoreException("cannot prepare the image directory " + dir + ": " + e, e);
        }
    }

    /** After every image of {@code fingerprint}'s graph was written; replaced atomically. */
    public void vouch(String fingerprint) {
        try {
            Path tmp = dir.resolve(MARKER + ".tmp");
            Files.writeString(tmp, fingerprint, StandardCharsets.UTF_8);
            Files.move(tmp, dir.resolve(MARKER), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new StoreException("cannot record the images of the graph in " + dir + ": " + e, e);
        }
    }

    /** Whether the directory holds the complete images of {@code fingerprint}'s graph. */
    public boolean holds(String fingerprint) {
        try {
            return fingerprint.equals(Files.readString(dir.resolve(MARKER), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return false;
        }
    }
}
