package org.bgbench.store.postgres;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.bgbench.store.StoreException;

/**
 * The PostgreSQL servers a store talks to that run on this host, by postmaster pid, so BG can report their CPU: the
 * embedded server's, and for a server on a loopback address the parent of a connection's backend when /proc shows
 * both are postgres processes.
 */
final class ServerProcesses {
    private ServerProcesses() {}

    /** The postmasters of the embedded server (if any), else of the primary and the replicas that run here. */
    static List<Long> of(EmbeddedServer embedded, PostgresPools pools) {
        if (embedded != null) {
            return embedded.pid().map(List::of).orElse(List.of());
        }
        List<Long> pids = new ArrayList<>();
        if (isLoopback(pools.target().host())) {
            postmaster(pools::connect).ifPresent(pids::add);
        }
        // The replicas' servers too, when they run here: BG reports the CPU of all of them.
        for (PostgresPools.Replica r : pools.replicas()) {
            if (isLoopback(r.target().host())) {
                postmaster(() -> {
                            try {
                                return r.pool().getConnection();
                            } catch (SQLException e) {
                                throw new StoreException(r.describe(e), e);
                            }
                        })
                        .filter(p -> !pids.contains(p))
                        .ifPresent(pids::add);
            }
        }
        return List.copyOf(pids);
    }

    /** The parent of the backend serving a connection from {@code connections}, if /proc shows both are postgres. */
    private static Optional<Long> postmaster(Supplier<Connection> connections) {
        try (Connection c = connections.get();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            long backend = rs.getLong(1);
            if (!isPostgresProcess(backend)) {
                return Optional.empty();
            }
            long parent = parentPid(backend);
            return parent > 1 && isPostgresProcess(parent) ? Optional.of(parent) : Optional.empty();
        } catch (SQLException | IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return host.indexOf(',') < 0 && InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean isPostgresProcess(long pid) throws IOException {
        Path comm = Path.of("/proc", Long.toString(pid), "comm");
        return Files.exists(comm) && Files.readString(comm).trim().startsWith("postgres");
    }

    private static long parentPid(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // Fields after the parenthesised command name: state, ppid, ...
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(rest[1]);
    }
}
