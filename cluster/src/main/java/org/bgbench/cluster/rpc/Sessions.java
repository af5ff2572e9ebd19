package org.bgbench.cluster.rpc;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The one coordinator session a worker serves. The first authenticated call opens it with the session id its client
 * sends; calls with that id go on, calls with another id are refused ({@link Busy}) until the session ends: its client
 * says so ({@code End}, when a {@link WorkerClient} closes), or none of its connections has been open for
 * {@code grace}. Connections are followed by the server's transport filter ({@link #opened}, {@link #closed}).
 * Thread-safe.
 */
final class Sessions {

    /** A refusal: who holds the worker, since when, and how long ago it disconnected (-1: connected). */
    record Busy(String holder, long sinceMillis, long goneMillis, long graceMillis) {}

    private final long graceNanos;
    private final Consumer<String> info;
    private final Set<SocketAddress> live = new HashSet<>();
    /** Ids refused recently, so each other coordinator is logged once. */
    private final Map<String, Boolean> refusedIds = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > 64;
        }
    };

    private Holder holder;

    private static final class Holder {
        final String id;
        final String address; // the IP it first came from
        final long sinceMillis;
        final Set<SocketAddress> connections = new HashSet<>();
        long goneSince; // nanoTime when its last connection closed; meaningful while connections is empty

        Holder(String id, String address, long sinceMillis, long now) {
            this.id = id;
            this.address = address;
            this.sinceMillis = sinceMillis;
            this.goneSince = now;
        }
    }

    Sessions(Duration grace, Consumer<String> info) {
        this.graceNanos = grace.toNanos();
        this.info = info;
    }

    synchronized void opened(SocketAddress connection) {
        if (connection != null) {
            live.add(connection);
        }
    }

    synchronized void closed(SocketAddress connection, long now) {
        live.remove(connection);
        if (holder != null && holder.connections.remove(connection) && holder.connections.isEmpty()) {
            holder.goneSince = now;
        }
    }

    /**
     * Lets a call of session {@code id} arriving on {@code connection} in, opening the session when the worker is
     * free (or its holder has been gone for the grace period); returns null when it may go on, else who holds it.
     */
    synchronized Busy admit(String id, SocketAddress connection, long now, long nowMillis) {
        if (holder != null && !holder.id.equals(id)) {
            long gone = holder.connections.isEmpty() ? now - holder.goneSince : -1;
            if (gone >= 0 && gone >= graceNanos) {
                info.accept("the coordinator at " + holder.address + " has been disconnected for "
                        + TimeUnit.NANOSECONDS.toSeconds(gone) + " s: its session ended");
                holder = null;
            } else {
                if (refusedIds.put(id, Boolean.TRUE) == null) {
                    info.accept("refused a coordinator at " + address(connection) + ": serving the one at "
                            + holder.address + " (a worker serves one coordinator at a time)");
                }
                return new Busy(
                        holder.address,
                        holder.sinceMillis,
                        gone < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(gone),
                        TimeUnit.NANOSECONDS.toMillis(graceNanos));
            }
        }
        if (holder == null) {
            holder = new Holder(id, address(connection), nowMillis, now);
            refusedIds.clear();
            info.accept("serving the coordinator at " + holder.address);
        }
        if (connection != null && live.contains(connection)) {
            holder.connections.add(connection);
        }
        return null;
    }

    /** Ends session {@code id} (its client closed); does nothing when another session holds the worker. */
    synchronized void end(String id) {
        if (holder != null && holder.id.equals(id)) {
            info.accept("the coordinator at " + holder.address + " ended its session");
            holder = null;
        }
    }

    /** The holder's address, or null when the worker is free. */
    synchronized String holder() {
        return holder == null ? null : holder.address;
    }

    static String address(SocketAddress a) {
        if (a instanceof InetSocketAddress inet) {
            InetAddress ip = inet.getAddress();
            return ip == null ? inet.getHostString() : ip.getHostAddress();
        }
        return String.valueOf(a);
    }
}
