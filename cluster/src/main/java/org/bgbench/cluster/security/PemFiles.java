package org.bgbench.cluster.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/** Reading and writing the PEM files of TLS (certificates, private keys) and files only their owner may read. */
final class PemFiles {

    private PemFiles() {}

    /** The certificates in a PEM file, in order (the worker's own first, then any intermediates). */
    static List<X509Certificate> readCertificates(Path file, String option) {
        try (InputStream in = Files.newInputStream(file)) {
            List<X509Certificate> certs = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certs.add((X509Certificate) c);
            }
            if (certs.isEmpty()) {
                throw new SecurityOptionException(
                        option, file + " holds no certificate (expected PEM, '-----BEGIN" + " CERTIFICATE-----')");
            }
            return certs;
        } catch (NoSuchFileException e) {
            throw new SecurityOptionException(option, "no such file: " + file);
        } catch (CertificateException e) {
            throw new SecurityOptionException(option, file + " is not a PEM certificate file: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new SecurityOptionException(option, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The private key in a PEM file: PKCS#8 ('PRIVATE KEY'), PKCS#1 ('RSA PRIVATE KEY') or SEC1 ('EC PRIVATE KEY'). */
    static PrivateKey readPrivateKey(Path file, String option) {
        Object pem;
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
                PEMParser parser = new PEMParser(in)) {
            pem = parser.readObject();
        } catch (NoSuchFileException e) {
            throw new SecurityOptionException(option, "no such file: " + file);
        } catch (IOException | RuntimeException e) {
            throw new SecurityOptionException(
                    option, "cannot read a PEM private key from " + file + ": " + e.getMessage(), e);
        }
        try {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            if (pem instanceof PrivateKeyInfo info) {
                return converter.getPrivateKey(info);
            }
            if (pem instanceof PEMKeyPair pair) {
                return converter.getPrivateKey(pair.getPrivateKeyInfo()); // SEC1 may leave the public key out
            }
        } catch (IOException e) {
            throw new SecurityOptionException(
                    option, "cannot use the private key in " + file + ": " + e.getMessage(), e);
        }
        if (pem instanceof PKCS8EncryptedPrivateKeyInfo || pem instanceof PEMEncryptedKeyPair) {
            throw new SecurityOptionException(
                    option,
                    "the private key in " + file + " is encrypted; BG needs it"
                            + " unencrypted (e.g. 'openssl pkey -in " + file
                            + " -out key.pem', then chmod 600 key.pem)");
        }
        throw new SecurityOptionException(
                option,
                file + " holds no private key (expected PEM, '-----BEGIN PRIVATE"
                        + " KEY-----', 'RSA PRIVATE KEY' or 'EC PRIVATE KEY')");
    }

    static String certificatePem(X509Certificate cert) {
        try {
            return pem("CERTIFICATE", cert.getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encode a certificate", e);
        }
    }

    /** PKCS#8, as 'openssl pkey' writes it. */
    static String privateKeyPem(PrivateKey key) {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    /**
     * Creates {@code file}, which must not exist, readable and writable by its owner only (mode 600 from the start,
     * so there is no moment when others could read it), and writes {@code content}.
     *
     * @throws FileAlreadyExistsException when it exists
     */
    static void writePrivate(Path file, String content) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file); // not POSIX: the directory's own protection applies
        }
        Files.writeString(file, content, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Creates {@code file}, which must not exist, with the usual permissions, and writes {@code content}. */
    static void writePublic(Path file, String content) throws IOException {
        Files.writeString(
                file, content, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }
}
