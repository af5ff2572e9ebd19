package org.bgbench.store.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import org.bgbench.model.InvalidParameterException;

/**
 * Loads a JDBC driver from jar files in a class loader of its own, whose parent is the JVM's platform loader: the
 * driver sees the JDK and its own jars, not BG's class path (so a driver jar BG also bundles, such as PostgreSQL's,
 * is the one given, not BG's copy). The {@link Driver} is used directly, never through {@link java.sql.DriverManager},
 * which ignores drivers of other class loaders. One class loader per set of jars, kept for the life of the JVM: a
 * store opened again uses the same driver classes (an embedded engine such as H2 keeps its open databases in static
 * state, so two copies would fight over one file).
 */
final class DriverLoader {
    private static final Map<List<Path>, ClassLoader> LOADERS = new ConcurrentHashMap<>();

    private DriverLoader() {}

    /**
     * The driver for {@code url}.
     *
     * @param className the driver class, or null to take the first driver the jars register (ServiceLoader) that
     *                  accepts {@code url}
     * @param jars      the driver's jars; empty: BG's own class path (which holds the SQLite, PostgreSQL and MariaDB
     *                  drivers)
     */
    static Driver load(String className, List<Path> jars, String url) {
        ClassLoader loader = jars.isEmpty() ? DriverLoader.class.getClassLoader() : loader(jars);
        String where = jars.isEmpty()
                ? "BG's class path (no " + JdbcStoreProvider.DRIVER_JAR + " or " + JdbcStoreProvider.DRIVER_MAVEN
                        + " given)"
                : jars.toString();
        Driver driver;
        if (className != null) {
            driver = instantiate(className, loader, where);
        } else {
            driver = find(loader, url, where);
        }
        boolean accepts;
        try {
            accepts = driver.acceptsURL(url);
        } catch (SQLException e) {
            accepts = false;
        }
        if (!accepts) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.URL,
                    "driver " + driver.getClass().getName() + " does not accept '" + url
                            + "' (a URL of another database, or a typo in its prefix)");
        }
        return driver;
    }

    private static ClassLoader loader(List<Path> jars) {
        List<Path> key = jars.stream().map(p -> p.toAbsolutePath().normalize()).toList();
        return LOADERS.computeIfAbsent(key, k -> {
            List<URL> urls = new ArrayList<>();
            for (Path p : k) {
                try {
                    urls.add(p.toUri().toURL());
                } catch (MalformedURLException e) {
                    throw new InvalidParameterException(JdbcStoreProvider.DRIVER_JAR, "not a usable path: " + p);
                }
            }
            return new URLClassLoader("bg-jdbc-driver", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        });
    }

    private static Driver instantiate(String className, ClassLoader loader, String where) {
        Class<?> c;
        try {
            c = Class.forName(className, true, loader);
        } catch (ClassNotFoundException | NoClassDefFoundError e) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.DRIVER,
                    "class " + className + " not found in "
                            + where
                            + (e instanceof NoClassDefFoundError
                                    ? " (it needs " + e.getMessage() + ": add that jar to "
                                            + JdbcStoreProvider.DRIVER_JAR + ")"
                                    : ""));
        } catch (LinkageError | RuntimeException e) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.DRIVER, "cannot load " + className + " from " + where + ": " + e);
        }
        if (!Driver.class.isAssignableFrom(c)) {
            throw new InvalidParameterException(JdbcStoreProvider.DRIVER, className + " is not a java.sql.Driver");
        }
        try {
            return (Driver) c.getDeclaredConstructor().newInstance();
        } catch (InvocationTargetException e) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.DRIVER, "cannot create " + className + ": " + e.getCause());
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.DRIVER,
                    "cannot create " + className + " (a driver needs a public no-argument constructor): " + e);
        }
    }

    private static Driver find(ClassLoader loader, String url, String where) {
        List<String> seen = new ArrayList<>();
        try {
            for (Driver d : ServiceLoader.load(Driver.class, loader)) {
                seen.add(d.getClass().getName());
                try {
                    if (d.acceptsURL(url)) {
                        return d;
                    }
                } catch (SQLException e) {
                    // Not this driver's URL.
                }
            }
        } catch (ServiceConfigurationError e) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.DRIVER,
                    "a driver in " + where + " cannot be loaded (" + e.getMessage() + "); name the class with "
                            + JdbcStoreProvider.DRIVER);
        }
        if (seen.isEmpty()) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.DRIVER,
                    "no JDBC driver registers itself in " + where + "; name its class with "
                            + JdbcStoreProvider.DRIVER);
        }
        throw new InvalidParameterException(
                JdbcStoreProvider.URL,
                "no driver in " + where + " accepts '" + url
                        + "' (found " + String.join(", ", seen)
                        + "); check the URL's prefix, or give the database's driver "
                        + "with " + JdbcStoreProvider.DRIVER_JAR + " or " + JdbcStoreProvider.DRIVER_MAVEN);
    }

    /** Checks that every jar exists and is a file. */
    static List<Path> jars(String value) {
        List<Path> jars = new ArrayList<>();
        for (String part : value.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            Path path = Path.of(p.startsWith("~/") ? System.getProperty("user.home") + p.substring(1) : p);
            if (!Files.isRegularFile(path)) {
                throw new InvalidParameterException(
                        JdbcStoreProvider.DRIVER_JAR, "no such jar file: " + path.toAbsolutePath());
            }
            jars.add(path);
        }
        if (jars.isEmpty()) {
            throw new InvalidParameterException(
                    JdbcStoreProvider.DRIVER_JAR, "expected jar paths separated by " + "commas, got '" + value + "'");
        }
        return jars;
    }
}
