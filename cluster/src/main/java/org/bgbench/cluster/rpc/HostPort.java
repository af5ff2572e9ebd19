package org.bgbench.cluster.rpc;

/** A validated worker address, {@code host:port} or {@code [v6-address]:port}. */
record HostPort(String host, int port) {
    static HostPort parse(String text) {
        String s = text == null ? "" : text.strip();
        String host;
        String port;
        if (s.startsWith("[")) {
            int close = s.indexOf("]:");
            host = close < 0 ? "" : s.substring(1, close);
            port = close < 0 ? "" : s.substring(close + 2);
        } else {
            int colon = s.lastIndexOf(':');
            host = colon < 0 || s.indexOf(':') != colon ? "" : s.substring(0, colon);
            port = colon < 0 ? "" : s.substring(colon + 1);
        }
        int p = -1;
        if (!port.isEmpty() && port.length() <= 5 && port.chars().allMatch(c -> c >= '0' && c <= '9')) {
            p = Integer.parseInt(port);
        }
        if (host.isBlank() || host.chars().anyMatch(Character::isWhitespace) || p < 1 || p > 65535) {
            throw new IllegalArgumentException("bad worker address '" + text + "': expected host:port with a"
                    + " port from 1 to 65535, e.g. 10.0.0.7:7070 or [fe80::1]:7070 (--workers takes a"
                    + " comma-separated list of them)");
        }
        return new HostPort(host, p);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
