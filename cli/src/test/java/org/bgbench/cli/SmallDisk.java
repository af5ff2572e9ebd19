package org.bgbench.cli;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** A small tmpfs to fill, for the tests of a full disk: a real file system that answers "No space left on device". */
final class SmallDisk {
    private SmallDisk() {}

    /**
     * Mounts a tmpfs of {@code size} at {@code mnt}. Needs root (CI runs as root); elsewhere the test is skipped, but
     * under CI a missing privilege is a failure, so the fault is never silently left untested.
     */
    static boolean mount(Path mnt, String size) throws Exception {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        Files.createDirectories(mnt);
        try {
            Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", mnt.toString())
                    .redirectErrorStream(true)
                    .start();
            String why = new String(m.getInputStream().readAllBytes());
            if (m.waitFor(30, TimeUnit.SECONDS) && m.exitValue() == 0) {
                return true;
            }
            if (ci) {
                fail("cannot mount a tmpfs to fill (CI must run this test as root): " + why);
            }
            Assumptions.abort("cannot mount a tmpfs (not root?): " + why);
        } catch (IOException e) {
            if (ci) {
                fail("cannot run mount: " + e.getMessage());
            }
            Assumptions.abort("cannot run mount: " + e.getMessage());
        }
        return false;
    }

    static void unmount(Path mnt) throws Exception {
        new ProcessBuilder("umount", mnt.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
    }

    /** Writes {@code file} until the disk is full, as another program on the machine might. */
    static void fill(Path file) throws Exception {
        byte[] chunk = new byte[64 << 10];
        try (OutputStream o = Files.newOutputStream(file)) {
            while (true) {
                o.write(chunk);
            }
        } catch (IOException full) {
            // no space left: what was written stays
        }
    }
}
