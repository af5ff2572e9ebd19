package org.bgbench.cluster.rpc;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A small certificate authority for tests: issues worker certificates, writes PEM as openssl does (SEC1 keys). */
final class TestCa {
    private static final AtomicLong SERIAL = new AtomicLong(1000);

    private final KeyPair caKeys;
    private final X509Certificate caCert;
    private final X500Name caName = new X500Name("CN=BG test CA");

    TestCa() throws Exception {
        caKeys = ecKeys();
        JcaX509v3CertificateBuilder b =
                new JcaX509v3CertificateBuilder(caName, serial(), from(), to(), caName, caKeys.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        caCert = sign(b, caKeys);
    }

    Path writeCa(Path file) throws IOException {
        Files.writeString(file, pem(caCert));
        return file;
    }

    /** A certificate for these names (IP literals as IP names), signed by this CA; the key in SEC1 PEM. */
    X509Certificate issue(List<String> names, Path certFile, Path keyFile) throws Exception {
        KeyPair keys = ecKeys();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                caName, serial(), from(), to(), new X500Name("CN=" + names.getFirst()), keys.getPublic());
        b.addExtension(
                Extension.subjectAlternativeName,
                false,
                new GeneralNames(names.stream()
                        .map(n -> new GeneralName(
                                Character.isDigit(n.charAt(0)) ? GeneralName.iPAddress : GeneralName.dNSName, n))
                        .toArray(GeneralName[]::new)));
        X509Certificate cert = sign(b, caKeys);
        Files.writeString(certFile, pem(cert));
        Files.writeString(keyFile, sec1(keys)); // "EC PRIVATE KEY", as 'openssl ecparam -genkey' writes it
        return cert;
    }

    /** An EC key pair as SEC1 PEM with the curve and the public key, the way openssl writes it. */
    static String sec1(KeyPair keys) throws IOException {
        SubjectPublicKeyInfo spki =
                SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded());
        ECPrivateKey sec1 = new ECPrivateKey(
                256,
                ((java.security.interfaces.ECPrivateKey) keys.getPrivate()).getS(),
                spki.getPublicKeyData(),
                spki.getAlgorithm().getParameters());
        return pem("EC PRIVATE KEY", sec1.getEncoded());
    }

    /** An RSA private key as PKCS#1 PEM ('RSA PRIVATE KEY', 'openssl genrsa -traditional'). */
    static String pkcs1(PrivateKey rsa) throws IOException {
        return pem(
                "RSA PRIVATE KEY",
                PrivateKeyInfo.getInstance(rsa.getEncoded())
                        .parsePrivateKey()
                        .toASN1Primitive()
                        .getEncoded());
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    static String pem(Object o) throws IOException {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter p = new JcaPEMWriter(w)) {
            p.writeObject(o);
        }
        return w.toString();
    }

    static KeyPair ecKeys() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static X509Certificate sign(JcaX509v3CertificateBuilder b, KeyPair signer) throws Exception {
        return new JcaX509CertificateConverter()
                .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIAL.incrementAndGet());
    }

    private static Date from() {
        return Date.from(Instant.now().minus(Duration.ofDays(1)));
    }

    private static Date to() {
        return Date.from(Instant.now().plus(Duration.ofDays(30)));
    }
}
