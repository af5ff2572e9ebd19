package org.bgbench.scaling.speedup;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a configuration's nodes are, from the addresses in its settings and store hosts: figures
 * measured with every node on BG's own machine say so, since the nodes then share its cores and show the method, not
 * the store's scalability.
 */
public final class Hosts {
    private static final Pattern URL_AUTHORITY = Pattern.compile("://(?:[^@/]*@)?([^/?#;]+)");
    private static final Pattern HOST_LIST_KEY =
            Pattern.compile("(?i).*(contact-points|quorum|hosts?|address|servers?)$");

    private Hosts() {}

    /**
     * The host names and addresses in store settings: the authority of every URL ({@code jdbc:postgresql://h1:5432,
     * h2:5433/bg} gives h1 and h2) and the values of keys naming hosts (contact points, a ZooKeeper quorum).
     */
    public static Set<String> inSettings(Map<String, String> settings) {
        Set<String> out = new LinkedHashSet<>();
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String v = e.getValue() == null ? "" : e.getValue();
            Matcher m = URL_AUTHORITY.matcher(v);
            boolean url = false;
            while (m.find()) {
                url = true;
                for (String part : m.group(1).split(",")) {
                    add(out, part);
                }
            }
            if (!url && HOST_LIST_KEY.matcher(e.getKey()).matches()) {
                for (String part : v.split("[,\\s]+")) {
                    add(out, part);
                }
            }
        }
        return out;
    }

    /** {@code HOST[:PORT]} without the port; an IPv6 address in brackets loses them. */
    public static String host(String address) {
        String a = address.trim();
        if (a.startsWith("[")) {
            int end = a.indexOf(']');
            return end < 0 ? a.substring(1) : a.substring(1, end);
        }
        int colon = a.indexOf(':');
        // More than one colon without brackets: a bare IPv6 address.
        return colon < 0 || a.indexOf(':', colon + 1) >= 0 ? a : a.substring(0, colon);
    }

    private static void add(Set<String> out, String part) {
        String h = host(part);
        if (!h.isBlank()) {
            out.add(h);
        }
    }

    /**
     * Whether every host is this machine: a loopback name or address, or one of its interfaces' addresses. A name
     * that does not resolve is not this machine. No hosts at all (an embedded store) is this machine too.
     */
    public static boolean allOnThisMachine(Collection<String> hosts) {
        for (String h : hosts) {
            if (!isThisMachine(h)) {
                return false;
            }
        }
        return true;
    }

    static boolean isThisMachine(String host) {
        String h = host(host);
        if (h.equalsIgnoreCase("localhost") || h.startsWith("127.") || h.equals("::1")) {
            return true;
        }
        try {
            for (InetAddress a : InetAddress.getAllByName(h)) {
                if (a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null) {
                    continue;
                }
                return false;
            }
            return true;
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }
}
