package org.bgbench.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.util.Date;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.assertj.core.api.ThrowableAssert;
import org.bgbench.cluster.security.Fingerprints;
import org.bgbench.cluster.security.SecurityOptionException;
import org.bgbench.cluster.security.TlsClient;
import org.bgbench.cluster.security.TlsServer;
import org.bouncycastle.asn1.pkcs.EncryptedPrivateKeyInfo;
import org.bouncycastle.asn1.pkcs.PKCS12PBEParams;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PEM files and options of TLS: the key formats openssl writes, and what is refused with which option named. */
class TlsFilesTest {

    @TempDir
    Path dir;

    private static void assertOption(Throwable t, String option, String text) {
        assertThat(t)
                .isInstanceOfSatisfying(
                        SecurityOptionException.class,
                        e -> assertThat(e.option()).isEqualTo(option))
                .hasMessageContaining(text);
    }

    @Test
    void readsSec1Pkcs1AndPkcs8KeysAndRefusesAKeyOfAnotherCertificate() throws Exception {
        TestCa ca = new TestCa();
        Path cert = dir.resolve("ec.pem");
        Path key = dir.resolve("ec.key");
        X509Certificate issued = ca.issue(List.of("localhost"), cert, key);
        assertThat(Files.readString(key)).startsWith("-----BEGIN EC PRIVATE KEY-----");
        TlsServer ec = TlsServer.fromPem(cert, key);
        assertThat(ec.certificate()).isEqualTo(issued);
        assertThat(ec.fingerprint()).isEqualTo(Fingerprints.sha256(issued)).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");

        // RSA, PKCS#1 and PKCS#8
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        KeyPair rsa = g.generateKeyPair();
        X500Name name = new X500Name("CN=rsa");
        X509Certificate rsaCert = new JcaX509CertificateConverter()
                .getCertificate(new JcaX509v3CertificateBuilder(
                                name,
                                BigInteger.TEN,
                                new Date(),
                                new Date(System.currentTimeMillis() + 86_400_000L),
                                name,
                                rsa.getPublic())
                        .build(new JcaContentSignerBuilder("SHA256withRSA").build(rsa.getPrivate())));
        Path rsaCertFile = Files.writeString(dir.resolve("rsa.pem"), TestCa.pem(rsaCert));
        Path pkcs1 = Files.writeString(dir.resolve("rsa1.key"), TestCa.pkcs1(rsa.getPrivate()));
        Path pkcs8 = Files.writeString(
                dir.resolve("rsa8.key"),
                TestCa.pem("PRIVATE KEY", rsa.getPrivate().getEncoded()));
        assertThat(TlsServer.fromPem(rsaCertFile, pkcs1).privateKey().getAlgorithm())
                .isEqualTo("RSA");
        assertThat(TlsServer.fromPem(rsaCertFile, pkcs8).privateKey()).isEqualTo(rsa.getPrivate());

        assertOption(catchThrowable(() -> TlsServer.fromPem(rsaCertFile, key)), "--tls-key", "does not belong to");
        assertOption(
                catchThrowable(() -> TlsServer.fromPem(dir.resolve("none.pem"), key)), "--tls-cert", "no such file");
        assertOption(catchThrowable(() -> TlsServer.fromPem(key, key)), "--tls-cert", "certificate");
        assertOption(catchThrowable(() -> TlsServer.fromPem(cert, cert)), "--tls-key", "holds no private key");
        Path encrypted = Files.writeString(
                dir.resolve("enc.key"),
                TestCa.pem(
                        "ENCRYPTED PRIVATE KEY",
                        new EncryptedPrivateKeyInfo(
                                        new AlgorithmIdentifier(
                                                PKCSObjectIdentifiers.pbeWithSHAAnd3_KeyTripleDES_CBC,
                                                new PKCS12PBEParams(new byte[8], 2048)),
                                        new byte[64])
                                .getEncoded()));
        assertOption(catchThrowable(() -> TlsServer.fromPem(cert, encrypted)), "--tls-key", "is encrypted");
    }

    @Test
    void optionsGoTogetherOrAreRefusedNamingTheOption() throws Exception {
        assertOption(
                catchThrowable(() -> TlsServer.resolve(dir.resolve("c.pem"), null, List.of(), s -> {})),
                "--tls-key",
                "go together"); // the one missing is named
        Path cert = Files.writeString(dir.resolve("only-cert.pem"), "x");
        assertOption(
                catchThrowable(() -> TlsServer.resolve(cert, dir.resolve("k.pem"), List.of(), s -> {})),
                "--tls-key",
                "no such file");
        assertThat(TlsServer.resolve(null, null, List.of("localhost"), s -> {}).generated())
                .isTrue();

        assertThat(TlsClient.resolve(false, null, null)).isNull();
        assertThat(TlsClient.resolve(true, null, List.of()).checksHostName()).isTrue();
        assertThat(TlsClient.resolve(false, null, List.of("AB".repeat(32))).checksHostName())
                .isFalse();
        assertOption(
                catchThrowable(() -> TlsClient.resolve(true, dir.resolve("ca.pem"), List.of("AB".repeat(32)))),
                "--tls-pin",
                "not both");
        assertOption(
                catchThrowable(() -> TlsClient.resolve(true, dir.resolve("ca.pem"), null)), "--tls-ca", "no such file");
        for (String bad : List.of("", "AB", "ZZ".repeat(32), "AB".repeat(33))) {
            assertOption(catchThrowable(() -> TlsClient.pinning(List.of(bad))), "--tls-pin", "64 hex digits");
        }
        String fp = "AB:".repeat(31) + "CD";
        assertThat(Fingerprints.parse(
                        "--tls-pin", "sha256:" + fp.replace(":", "").toLowerCase()))
                .isEqualTo(fp);
    }

    private static Throwable catchThrowable(ThrowableAssert.ThrowingCallable c) {
        return Assertions.catchThrowable(c);
    }
}
