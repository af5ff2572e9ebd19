package org.bgbench.cluster.security;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A worker's TLS identity: its private key and certificate chain, from PEM files or generated (self-signed) at start.
 * {@link #fingerprint()} is what a coordinator pins with {@code --tls-pin}.
 */
public final class TlsServer {

    /** How long a generated certificate is valid. A pinned one is checked by its fingerprint only, never its dates. */
    static final Duration GENERATED_VALIDITY = Duration.ofDays(3650);

    private final PrivateKey key;
    private final List<X509Certificate> chain;
    private final boolean generated;

    private TlsServer(PrivateKey key, List<X509Certificate> chain, boolean generated) {
        this.key = Objects.requireNonNull(key, "key");
        this.chain = List.copyOf(chain);
        this.generated = generated;
        if (this.chain.isEmpty()) {
            throw new IllegalArgumentException("a TLS identity needs a certificate");
        }
    }

    /**
     * The identity in two PEM files.
     *
     * @param cert the worker's certificate, then any intermediates ({@code --tls-cert})
     * @param key its private key, unencrypted ({@code --tls-key})
     * @throws SecurityOptionException naming the option when a file cannot be read or the key is not the certificate's
     */
    public static TlsServer fromPem(Path cert, Path key) {
        List<X509Certificate> chain = PemFiles.readCertificates(cert, "--tls-cert");
        PrivateKey privateKey = PemFiles.readPrivateKey(key, "--tls-key");
        if (!matches(privateKey, chain.getFirst())) {
            throw new SecurityOptionException(
                    "--tls-key",
                    "the private key in " + key + " does not belong to the" + " first certificate in " + cert);
        }
        return new TlsServer(privateKey, chain, false);
    }

    /**
     * A new self-signed certificate (ECDSA P-256, SHA-256) for the given names: host names become DNS names, IP
     * addresses IP names; the first is also the certificate's common name.
     */
    public static TlsServer selfSigned(Collection<String> names) {
        Set<String> all = new LinkedHashSet<>(names);
        all.removeIf(n -> n == null || n.isBlank());
        if (all.isEmpty()) {
            all.add("localhost");
        }
        try {
            KeyPairGenerator kpg = KeyPairGenerator.getInstance("EC");
            kpg.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair pair = kpg.generateKeyPair();
            X500Name subject = new X500NameBuilder(BCStyle.INSTANCE)
                    .addRDN(BCStyle.O, "BG worker")
                    .addRDN(BCStyle.CN, all.iterator().next())
                    .build();
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    subject,
                    new BigInteger(127, new SecureRandom()).add(BigInteger.ONE),
                    Date.from(now.minus(Duration.ofDays(1))),
                    Date.from(now.plus(GENERATED_VALIDITY)),
                    subject,
                    pair.getPublic());
            List<GeneralName> sans = new ArrayList<>();
            for (String n : all) {
                sans.add(new GeneralName(isIpLiteral(n) ? GeneralName.iPAddress : GeneralName.dNSName, n));
            }
            builder.addExtension(
                    Extension.subjectAlternativeName, false, new GeneralNames(sans.toArray(GeneralName[]::new)));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(
                    Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            X509Certificate cert = new JcaX509CertificateConverter()
                    .getCertificate(
                            builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
            return new TlsServer(pair.getPrivate(), List.of(cert), true);
        } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
            throw new IllegalStateException("cannot generate a self-signed certificate: " + e.getMessage(), e);
        }
    }

    /**
     * A worker's identity from its options: {@code --tls-cert} and {@code --tls-key} together, or neither. Neither:
     * a self-signed certificate for this run only (its fingerprint changes at every start). Both, and both files
     * exist: those. Both, and neither file exists yet: a self-signed certificate written to them (the key with mode
     * 600), so the fingerprint stays the same across restarts.
     *
     * @param names the names a generated certificate carries (see {@link #selfSigned})
     * @param say receives one line when files were written
     */
    public static TlsServer resolve(Path cert, Path key, Collection<String> names, Consumer<String> say) {
        if ((cert == null) != (key == null)) {
            throw new SecurityOptionException(
                    cert == null ? "--tls-cert" : "--tls-key",
                    "--tls-cert and --tls-key go together (or give neither for a self-signed certificate)");
        }
        if (cert == null) {
            return selfSigned(names);
        }
        boolean certExists = Files.exists(cert);
        boolean keyExists = Files.exists(key);
        if (certExists && keyExists) {
            Secrets.warnIfOthersMayRead(key, say);
            return fromPem(cert, key);
        }
        if (certExists || keyExists) {
            throw new SecurityOptionException(
                    certExists ? "--tls-key" : "--tls-cert",
                    "no such file: "
                            + (certExists ? key : cert) + " (give both files, or two that do not exist yet to have a"
                            + " self-signed certificate written to them)");
        }
        TlsServer generated = selfSigned(names);
        try {
            PemFiles.writePrivate(key, PemFiles.privateKeyPem(generated.key));
        } catch (FileAlreadyExistsException e) {
            throw new SecurityOptionException("--tls-key", key + " appeared while BG was writing it; start again");
        } catch (IOException e) {
            throw new SecurityOptionException("--tls-key", "cannot write " + key + ": " + e.getMessage(), e);
        }
        try {
            PemFiles.writePublic(cert, PemFiles.certificatePem(generated.certificate()));
        } catch (IOException e) {
            throw new SecurityOptionException("--tls-cert", "cannot write " + cert + ": " + e.getMessage(), e);
        }
        say.accept("generated a self-signed TLS certificate: " + cert + " (key " + key + ", mode 600)");
        return generated;
    }

    /** The names a generated certificate should carry for a worker listening on {@code listen}. */
    public static List<String> defaultNames(InetAddress listen) {
        Set<String> names = new LinkedHashSet<>();
        try {
            names.add(InetAddress.getLocalHost().getHostName());
        } catch (IOException e) {
            // no host name: the others will do
        }
        if (listen != null && !listen.isAnyLocalAddress()) {
            names.add(listen.getHostAddress());
        }
        names.add("localhost");
        names.add("127.0.0.1");
        names.add("::1");
        return List.copyOf(names);
    }

    /** The private key. */
    public PrivateKey privateKey() {
        return key;
    }

    /** The worker's certificate, then any intermediates. */
    public List<X509Certificate> chain() {
        return chain;
    }

    /** The worker's own certificate. */
    public X509Certificate certificate() {
        return chain.getFirst();
    }

    /** Whether it was generated at start (self-signed). */
    public boolean generated() {
        return generated;
    }

    /** The SHA-256 fingerprint of the worker's certificate, what {@code --tls-pin} takes. */
    public String fingerprint() {
        return Fingerprints.sha256(certificate());
    }

    @Override
    public String toString() {
        return "TlsServer[" + certificate().getSubjectX500Principal().getName() + ", SHA-256 " + fingerprint() + "]";
    }

    private static boolean isIpLiteral(String name) {
        return name.contains(":") || name.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }

    /** Whether {@code key} signs what the certificate's public key verifies. */
    private static boolean matches(PrivateKey key, X509Certificate cert) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            case "Ed448" -> "Ed448";
            default -> null;
        };
        if (algorithm == null) {
            return true; // a type we cannot check here; the TLS handshake will
        }
        try {
            byte[] probe = new byte[32];
            new SecureRandom().nextBytes(probe);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(cert.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
