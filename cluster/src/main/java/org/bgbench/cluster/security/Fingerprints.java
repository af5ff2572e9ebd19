package org.bgbench.cluster.security;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;

/** SHA-256 fingerprints of certificates, written as {@code openssl x509 -fingerprint -sha256} does: AB:CD:…. */
public final class Fingerprints {

    private Fingerprints() {}

    /** The SHA-256 of the certificate's DER encoding, 32 upper-case hex pairs separated by colons. */
    public static String sha256(X509Certificate cert) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException("cannot fingerprint a certificate", e);
        }
    }

    /**
     * A fingerprint as the user typed it, normalised to {@link #sha256}'s form: 64 hex digits, upper or lower case,
     * with or without colons, an optional {@code sha256:} or {@code SHA256:} prefix.
     *
     * @throws SecurityOptionException naming {@code option} when it is not one
     */
    public static String parse(String option, String text) {
        String s = text == null ? "" : text.strip();
        if (s.regionMatches(true, 0, "sha256:", 0, 7)) {
            s = s.substring(7);
        }
        String hex = s.replace(":", "").toUpperCase(Locale.ROOT);
        if (hex.length() != 64 || !hex.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'))) {
            throw new SecurityOptionException(
                    option,
                    "expected a certificate's SHA-256 fingerprint, 64 hex digits"
                            + " (colons allowed; the worker prints it when it starts with --tls), got '" + text + "'");
        }
        return HexFormat.ofDelimiter(":")
                .withUpperCase()
                .formatHex(HexFormat.of().parseHex(hex));
    }
}
