package org.bgbench.deck;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The deck's token: generated when none is given, else checked like the workers' shared secret (at least
 * {@value #MIN_LENGTH} characters) and limited to characters that travel unchanged in a URL, a cookie and a header.
 */
public final class DeckToken {
    /** Fewest characters of a token, the workers' rule for their shared secret. */
    public static final int MIN_LENGTH = 16;
    /** Random bytes of a generated token (192 bits, 32 characters). */
    private static final int GENERATED_BYTES = 24;

    private static final Pattern CHARACTERS = Pattern.compile("[A-Za-z0-9._~+/=-]+");
    private static final SecureRandom RANDOM = new SecureRandom();

    private DeckToken() {}

    /** A new random token, URL-safe Base64 without padding. */
    public static String generate() {
        byte[] bytes = new byte[GENERATED_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * {@code token} when it may be used.
     *
     * @throws IllegalArgumentException starting with {@code --token:} for a short token or one with other characters
     */
    public static String check(String token) {
        int length = token == null ? 0 : token.codePointCount(0, token.length());
        if (length < MIN_LENGTH) {
            throw new IllegalArgumentException("--token: the token has " + length + " characters; at least "
                    + MIN_LENGTH + " are needed (leave --token out to have one generated, or use e.g. "
                    + "'openssl rand -hex 16')");
        }
        if (!CHARACTERS.matcher(token).matches()) {
            throw new IllegalArgumentException("--token: letters, digits and . _ ~ + / = - only (it travels in a URL"
                    + " and a cookie), e.g. 'openssl rand -hex 16'");
        }
        return token;
    }
}
