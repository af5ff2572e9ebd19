package org.bgbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where BG is installed, for the scripts it starts servers with ({@code scripts/*.sh}): the directory the {@code bg}
 * launcher names in the system property {@code bg.home}, else the checkout holding this class (its jar in
 * cli/target, or its classes in a module's target when tests run), else the working directory or one above it.
 */
final class BgHome {
    private BgHome() {}

    /** BG's root directory, or empty when none of the places holds its scripts. */
    static Optional<Path> find() {
        String home = System.getProperty("bg.home");
        if (home != null && !home.isBlank() && isHome(Path.of(home))) {
            return Optional.of(Path.of(home).toAbsolutePath());
        }
        try {
            Path code = Path.of(BgHome.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            Optional<Path> above = above(code);
            if (above.isPresent()) {
                return above;
            }
        } catch (Exception e) {
            // no readable code source (a custom class loader): try the working directory
        }
        return above(Path.of(System.getProperty("user.dir")));
    }

    /** The script {@code scripts/NAME} of BG's installation, or a one-line refusal saying how to point BG at it. */
    static Path script(String name) {
        return find().map(h -> h.resolve("scripts").resolve(name))
                .orElseThrow(() -> new org.bgbench.model.InvalidParameterException(
                        "server",
                        "cannot find BG's scripts/" + name + " (run BG through its bg launcher, or give"
                                + " -Dbg.home=DIR, the directory holding bg and scripts/)"));
    }

    private static Optional<Path> above(Path start) {
        for (Path d = start.toAbsolutePath(); d != null; d = d.getParent()) {
            if (isHome(d)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    private static boolean isHome(Path d) {
        return Files.isRegularFile(d.resolve("bg")) && Files.isRegularFile(d.resolve("scripts/mariadb.sh"));
    }
}
