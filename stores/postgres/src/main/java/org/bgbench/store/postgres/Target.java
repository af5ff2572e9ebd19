package org.bgbench.store.postgres;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.store.StoreException;
import org.postgresql.Driver;
import org.postgresql.util.PSQLException;

/**
 * The server a store talks to, as users name it, and the translation of connection failures into messages that say
 * what failed and what to change, without a stack trace.
 *
 * @param url      the JDBC URL
 * @param host     host (or hosts) from the URL
 * @param port     port (or ports) from the URL
 * @param database database from the URL
 * @param user     the role BG logs in as
 */
record Target(String url, String host, String port, String database, String user) {
    static Target of(String url, String user) {
        Properties p = url == null ? null : Driver.parseURL(url, null);
        if (p == null) {
            throw new StoreException("postgres.url '" + url
                    + "' is not a PostgreSQL JDBC URL; expected jdbc:postgresql://HOST:PORT/DATABASE");
        }
        return new Target(
                url,
                p.getProperty("PGHOST", "localhost"),
                p.getProperty("PGPORT", "5432"),
                p.getProperty("PGDBNAME", ""),
                user);
    }

    /**
     * Sets the connection's encryption in {@code props}: off when every host of the URL is this machine (localhost,
     * 127.0.0.0/8, ::1) and the URL does not choose ({@code sslmode} or {@code ssl}), else the URL's or pgJDBC's
     * default ({@code prefer}: TLS when the server offers it). On one machine TLS protects nothing and costs BG and
     * the server CPU on every round trip: a fifth of BG's CPU in List Friends, and the server's share alike.
     */
    void chooseTls(Properties props) {
        if (loopback() && !choosesTls()) {
            props.setProperty("sslmode", "disable");
        } else {
            props.remove("sslmode");
        }
    }

    /** Whether the URL itself says whether to encrypt. */
    boolean choosesTls() {
        Properties p = Driver.parseURL(url, null);
        return p != null && (p.containsKey("sslmode") || p.containsKey("ssl"));
    }

    /** Whether every host the URL names is this machine. */
    boolean loopback() {
        for (String h : host.split(",")) {
            String x = h.trim().toLowerCase(Locale.ROOT);
            if (x.startsWith("[") && x.endsWith("]")) {
                x = x.substring(1, x.length() - 1);
            }
            if (!(x.equals("localhost") || x.startsWith("127.") || x.equals("::1"))) {
                return false;
            }
        }
        return true;
    }

    /** This URL with {@code other} as the database, keeping hosts and parameters. */
    String urlFor(String other) {
        Matcher m =
                Pattern.compile("^(jdbc:postgresql://[^/?]*)(/[^?]*)?(\\?.*)?$").matcher(url);
        if (!m.matches()) {
            throw new StoreException("cannot name another database in postgres.url " + url);
        }
        return m.group(1) + "/" + other + (m.group(3) == null ? "" : m.group(3));
    }

    String address() {
        return host + ":" + port;
    }

    /** A message for a failed connection attempt or statement, with advice for the usual causes. */
    String describe(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return switch (state) {
            case "28P01" ->
                "authentication failed for user '" + user + "' at PostgreSQL " + address()
                        + " (check postgres.password)";
            case "28000" -> "PostgreSQL at " + address() + " refused user '" + user + "': " + serverMessage(e);
            case "3D000" ->
                "database '" + database + "' does not exist on PostgreSQL at " + address()
                        + "; create it (createdb -h " + host + " -p " + port + " " + database
                        + ") or point postgres.url at an existing one";
            case "53300" ->
                "PostgreSQL at " + address() + " has no free connection slots (max_connections reached); "
                        + "lower postgres.pool or the thread count";
            case "57P03" -> "PostgreSQL at " + address() + " is starting up or shutting down; try again shortly";
            default ->
                state.startsWith("08") || rootCause(e) instanceof IOException
                        ? unreachable(e)
                        : "PostgreSQL at " + address() + ": " + serverMessage(e);
        };
    }

    private String unreachable(SQLException e) {
        Throwable root = rootCause(e);
        String why;
        if (root instanceof UnknownHostException) {
            return "cannot resolve host '" + host + "' of postgres.url " + url;
        } else if (root instanceof ConnectException) {
            why = "connection refused (is the server running and accepting TCP connections on that port?)";
        } else if (root instanceof SocketTimeoutException) {
            why = "timed out (is a firewall dropping the connection?)";
        } else if (root instanceof NoRouteToHostException) {
            why = "no route to host";
        } else {
            why = e.getMessage();
        }
        return "cannot reach PostgreSQL at " + address() + ": " + why;
    }

    private static String serverMessage(SQLException e) {
        if (e instanceof PSQLException p
                && p.getServerErrorMessage() != null
                && p.getServerErrorMessage().getMessage() != null) {
            return p.getServerErrorMessage().getMessage();
        }
        return e.getMessage();
    }

    private static Throwable rootCause(Throwable t) {
        Throwable r = t;
        while (r.getCause() != null && r.getCause() != r) {
            r = r.getCause();
        }
        return r;
    }
}
