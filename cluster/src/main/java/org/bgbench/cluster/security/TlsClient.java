package org.bgbench.cluster.security;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * How a coordinator decides to trust a worker over TLS: the system's certificate authorities, the authorities in a
 * PEM file ({@code --tls-ca}; the worker's certificate must then also name the host the coordinator connects to), or
 * exact certificates by their SHA-256 fingerprint ({@code --tls-pin}; names, dates and issuers are then not looked at:
 * the fingerprint is the identity).
 */
public final class TlsClient {

    private final X509TrustManager trust;
    private final String description;

    private TlsClient(X509TrustManager trust, String description) {
        this.trust = trust;
        this.description = description;
    }

    /** Trusts the certificate authorities of this JVM (its cacerts), and checks the worker's host name. */
    public static TlsClient systemTrust() {
        return new TlsClient(trustManager(null), "the system's certificate authorities");
    }

    /** Trusts the certificate authorities (or self-signed certificates) in a PEM file, and checks the host name. */
    public static TlsClient trusting(Path caPem) {
        List<X509Certificate> certs = PemFiles.readCertificates(caPem, "--tls-ca");
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (X509Certificate c : certs) {
                store.setCertificateEntry("ca-" + i++, c);
            }
            return new TlsClient(trustManager(store), "the certificates in " + caPem);
        } catch (GeneralSecurityException | IOException e) {
            throw new SecurityOptionException(
                    "--tls-ca", "cannot use the certificates in " + caPem + ": " + e.getMessage(), e);
        }
    }

    /**
     * Trusts exactly the certificates with these SHA-256 fingerprints (any of them: one per worker when each has its
     * own self-signed certificate).
     *
     * @throws SecurityOptionException naming {@code --tls-pin} for a malformed fingerprint or none
     */
    public static TlsClient pinning(Collection<String> fingerprints) {
        Set<String> pins = new LinkedHashSet<>();
        for (String f : fingerprints) {
            pins.add(Fingerprints.parse("--tls-pin", f));
        }
        if (pins.isEmpty()) {
            throw new SecurityOptionException("--tls-pin", "give at least one certificate fingerprint");
        }
        return new TlsClient(
                new PinningTrustManager(pins),
                pins.size() == 1
                        ? "the pinned certificate " + pins.iterator().next()
                        : pins.size() + " pinned certificates");
    }

    /**
     * A coordinator's choice from its options, or null for plaintext: {@code --tls-pin} and {@code --tls-ca} each
     * imply {@code --tls}; {@code --tls} alone trusts the system's certificate authorities.
     *
     * @throws SecurityOptionException when both {@code --tls-pin} and {@code --tls-ca} are given, or one is bad
     */
    public static TlsClient resolve(boolean tls, Path ca, List<String> pins) {
        boolean pinned = pins != null && !pins.isEmpty();
        if (pinned && ca != null) {
            throw new SecurityOptionException("--tls-pin", "give either --tls-pin or --tls-ca, not both");
        }
        if (pinned) {
            return pinning(pins);
        }
        if (ca != null) {
            return trusting(ca);
        }
        return tls ? systemTrust() : null;
    }

    /** The trust manager to give the TLS engine. */
    public X509TrustManager trustManager() {
        return trust;
    }

    /** Whether the worker's certificate must also name the host connected to (not with pins). */
    public boolean checksHostName() {
        return !(trust instanceof PinningTrustManager);
    }

    @Override
    public String toString() {
        return "TlsClient[trusting " + description + "]";
    }

    /** What it trusts, for messages: "the pinned certificate AB:…", "the certificates in ca.pem". */
    public String description() {
        return description;
    }

    private static X509TrustManager trustManager(KeyStore store) {
        try {
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init(store);
            for (TrustManager t : f.getTrustManagers()) {
                if (t instanceof X509TrustManager x) {
                    return x;
                }
            }
            throw new IllegalStateException("the JDK has no X.509 trust manager");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS trust: " + e.getMessage(), e);
        }
    }

    /**
     * Accepts a server whose own certificate has one of the pinned fingerprints, and nothing else. It is an
     * {@link X509ExtendedTrustManager}, so the JDK does not add its own host name check around it.
     */
    static final class PinningTrustManager extends X509ExtendedTrustManager {
        private final Set<String> pins;

        PinningTrustManager(Set<String> pins) {
            this.pins = Set.copyOf(pins);
        }

        private void check(X509Certificate[] chain) throws CertificateException {
            if (chain == null || chain.length == 0) {
                throw new CertificateException("the worker presented no certificate");
            }
            String actual = Fingerprints.sha256(chain[0]);
            if (!pins.contains(actual)) {
                throw new CertificateException("the worker's certificate has SHA-256 fingerprint " + actual
                        + ", which is not " + (pins.size() == 1 ? "the one pinned" : "among those pinned")
                        + " with --tls-pin");
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a coordinator does not accept client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            throw new CertificateException("a coordinator does not accept client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            throw new CertificateException("a coordinator does not accept client certificates");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
