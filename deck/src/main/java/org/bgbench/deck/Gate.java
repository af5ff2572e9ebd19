package org.bgbench.deck;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.bgbench.runner.guard.Throttle;

/**
 * Decides whether the deck serves a request: its {@code Host} must be an address the deck listens on, {@code
 * localhost} on a loopback deck, or a name the deck was told to accept (so a DNS-rebinding page, whose requests name
 * the attacker's host, is refused); a browser's {@code Origin} and {@code Sec-Fetch-Site} must say the deck's own page;
 * the token must come with it (query, {@code Authorization: Bearer} or the cookie the first page set), wrong tokens
 * being throttled per source address; and a POST authenticated by the cookie must carry the page's {@value #HEADER}
 * header, which no other site can add without the deck's consent.
 */
final class Gate {
    /** The header the deck's page sends with every POST. */
    static final String HEADER = "X-Bg-Deck";

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(?:\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-f:.]*:[0-9a-f:.]*(?:%[\\w.-]+)?");
    private static final Pattern PORT = Pattern.compile("(?::\\d{1,5})?");
    private final InetAddress bound;
    private final byte[] token;
    private final Set<String> names;
    private final Throttle throttle;
    /** The cookie's name: one per deck started, so a page of an earlier deck on this host sends no stale token. */
    private final String cookie;

    /** Why a request is not served. */
    record Refusal(int status, String message) {}

    Gate(InetAddress bound, String token, Set<String> names, Throttle throttle) {
        this.bound = bound;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.names =
                Set.copyOf(names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList());
        this.throttle = throttle;
        byte[] id = new byte[6];
        new SecureRandom().nextBytes(id);
        this.cookie = "bg_deck_" + HexFormat.of().formatHex(id);
    }

    /** Null when {@code ex} may be served; may add the token's cookie to the response. */
    Refusal check(HttpExchange ex) throws IOException {
        String host = ex.getRequestHeaders().getFirst("Host");
        if (!hostAllowed(host)) {
            return new Refusal(
                    403,
                    "Host: '" + shorten(host) + "' is not an address this deck listens on (a page "
                            + "of another site cannot drive it); start the deck with --allow-host NAME to accept a name");
        }
        String origin = ex.getRequestHeaders().getFirst("Origin");
        String site = ex.getRequestHeaders().getFirst("Sec-Fetch-Site");
        if ((origin != null
                        && !origin.equalsIgnoreCase("http://" + host)
                        && !origin.equalsIgnoreCase("https://" + host))
                || "cross-site".equals(site)
                || "same-site".equals(site)) {
            return new Refusal(403, "requests to the deck must come from the deck's own page");
        }
        String given = Http.query(ex).get("token");
        boolean fromQuery = given != null;
        boolean fromCookie = false;
        if (given == null) {
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            if (auth != null && auth.startsWith("Bearer ")) {
                given = auth.substring(7).trim();
            }
        }
        if (given == null) {
            given = cookieValue(ex.getRequestHeaders().getOrDefault("Cookie", List.of()));
            fromCookie = given != null;
        }
        if (given == null) {
            return new Refusal(401, "this deck needs its token: open the address 'bg deck' printed");
        }
        InetAddress from = ex.getRemoteAddress().getAddress();
        long now = System.nanoTime();
        long wait = throttle.delay(from, now);
        if (wait > 0) {
            long seconds = Math.max(1, (wait + 999_999_999L) / 1_000_000_000L);
            ex.getResponseHeaders().set("Retry-After", Long.toString(seconds));
            return new Refusal(
                    429,
                    "wrong tokens came from " + from.getHostAddress() + ": its requests are not " + "looked at for "
                            + seconds + " s");
        }
        // Comparing digests in constant time reveals neither the token's bytes nor its length.
        if (!MessageDigest.isEqual(sha256(given.getBytes(StandardCharsets.UTF_8)), sha256(token))) {
            throttle.refused(from, "wrong token", now);
            return new Refusal(401, "wrong token: open the address 'bg deck' printed");
        }
        throttle.accepted(from, now);
        if (fromCookie
                && ex.getRequestMethod().equals("POST")
                && ex.getRequestHeaders().getFirst(HEADER) == null) {
            return new Refusal(403, "requests that start commands must come from the deck's own page");
        }
        if (fromQuery) {
            // only the right token becomes the cookie: a link with any other value must not set one
            ex.getResponseHeaders()
                    .add(
                            "Set-Cookie",
                            cookie + "=" + new String(token, StandardCharsets.UTF_8)
                                    + "; Path=/; HttpOnly; SameSite=Strict");
        }
        return null;
    }

    private String cookieValue(List<String> headers) {
        for (String header : headers) {
            for (String c : header.split(";")) {
                String t = c.trim();
                if (t.startsWith(cookie + "=")) {
                    return t.substring(cookie.length() + 1);
                }
            }
        }
        return null;
    }

    /** Whether {@code header} (HOST or HOST:PORT) names this deck; any port, so a tunnel's own port works. */
    boolean hostAllowed(String header) {
        if (header == null) {
            return false;
        }
        String h = header.trim().toLowerCase(Locale.ROOT);
        String name;
        String rest;
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            if (end < 0) {
                return false;
            }
            name = h.substring(1, end);
            rest = h.substring(end + 1);
        } else {
            int colon = h.indexOf(':');
            name = colon < 0 ? h : h.substring(0, colon);
            rest = colon < 0 ? "" : h.substring(colon);
        }
        if (name.isEmpty() || !PORT.matcher(rest).matches()) {
            return false;
        }
        if (names.contains(name)) {
            return true;
        }
        if (name.equals("localhost")) {
            return bound.isLoopbackAddress() || bound.isAnyLocalAddress();
        }
        InetAddress literal = literal(name);
        if (literal == null) {
            return false; // a name: only those given with --allow-host
        }
        if (bound.isAnyLocalAddress()) {
            try {
                return literal.isLoopbackAddress() || NetworkInterface.getByInetAddress(literal) != null;
            } catch (IOException e) {
                return false;
            }
        }
        return literal.equals(bound);
    }

    /** {@code name} as an IP address when it is an address literal (never a DNS lookup), else null. */
    private static InetAddress literal(String name) {
        try {
            if (IPV4.matcher(name).matches()) {
                byte[] b = new byte[4];
                String[] parts = name.split("\\.");
                for (int i = 0; i < 4; i++) {
                    int octet = Integer.parseInt(parts[i]);
                    if (octet > 255) {
                        return null;
                    }
                    b[i] = (byte) octet;
                }
                return InetAddress.getByAddress(b);
            }
            // in brackets, the JDK parses an IPv6 literal or refuses it, and never asks DNS
            return IPV6.matcher(name).matches() ? InetAddress.getByName("[" + name + "]") : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String shorten(String s) {
        return s == null ? "" : s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
