package org.bgbench.scaling.report;

import java.net.InetAddress;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The hosts a store's settings name (JDBC URLs, contact points, connection strings, host lists), to tell whether
 * every node runs on this machine: then the nodes share its cores and a scaling figure shows the method, not the store.
 */
public final class StoreAddresses {
    private StoreAddresses() {
    }

    /** The host names in the values of keys that name where a store is (url, host, contact, server, connection). */
    public static Set<String> hosts(Map<String, String> settings) {
        Set<String> out = new LinkedHashSet<>();
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String k = e.getKey().toLowerCase(java.util.Locale.ROOT);
            if (e.getValue() == null || !(k.contains("url") || k.contains("host") || k.contains("contact")
                    || k.contains("server") || k.contains("connection") || k.contains("quorum"))) {
                continue;
            }
            for (String token : e.getValue().trim().split("[,;\\s]+")) {
                String h = host(token);
                if (h != null) {
                    out.add(h);
                }
            }
        }
        return out;
    }

    /** The host of one address: {@code jdbc:postgresql://h:5432/bg}, {@code mongodb://u:p@h:27017}, {@code h:9042}, {@code h}. */
    static String host(String token) {
        String t = token;
        int scheme = t.indexOf("://");
        if (scheme >= 0) {
            t = t.substring(scheme + 3);
        } else if (t.startsWith("jdbc:")) {
            return null; // a URL without an authority (sqlite's jdbc:sqlite:file)
        }
        int slash = t.indexOf('/');
        if (slash >= 0) {
            t = t.substring(0, slash);
        }
        if (t.contains("=")) {
            return null; // a key=value option
        }
        int at = t.lastIndexOf('@');
        if (at >= 0) {
            t = t.substring(at + 1);
        }
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            return close > 1 ? t.substring(1, close) : null;
        }
        int colon = t.indexOf(':');
        if (colon >= 0) {
            if (!t.substring(colon + 1).matches("\\d+")) {
                return null;
            }
            t = t.substring(0, colon);
        }
        // A host is an address or a dotted name or localhost; a bare word is a database, a path or a setting value.
        return t.matches("[A-Za-z0-9.-]+") && (t.contains(".") || t.equalsIgnoreCase("localhost")) ? t : null;
    }

    /** Whether every host is this machine (loopback or one of its own addresses); true for none (in-process stores). */
    public static boolean allLocal(Collection<String> hosts) {
        for (String h : hosts) {
            if (!local(h)) {
                return false;
            }
        }
        return true;
    }

    private static boolean local(String host) {
        if (host.equalsIgnoreCase("localhost") || host.startsWith("127.") || host.equals("::1")) {
            return true;
        }
        try {
            InetAddress a = InetAddress.getByName(host);
            return a.isLoopbackAddress() || a.isAnyLocalAddress()
                    || java.net.NetworkInterface.getByInetAddress(a) != null;
        } catch (java.io.IOException e) {
            return false; // an unknown name is not this machine as far as BG can tell
        }
    }

    /** The warning BG prints and records when every node is on this machine. */
    public static String oneHostWarning(Collection<String> hosts) {
        return "every node of the store is on this machine (" + (hosts.isEmpty() ? "in BG's process or unnamed"
                : String.join(", ", hosts)) + ") and shares its cores with the others and with BG: these figures "
                + "demonstrate the method, not the store's scalability or elasticity; run the nodes on their own hosts "
                + "for that (the same command works unchanged with their addresses)";
    }
}
