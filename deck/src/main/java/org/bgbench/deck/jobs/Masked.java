package org.bgbench.deck.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A job's arguments and output as the page sees them: the value of every setting or option whose name says password,
 * secret or token, the password of a URL's user information and a URL's password parameters are shown as
 * {@value #MASK}. The command itself still gets the real values.
 */
final class Masked {
    static final String MASK = "****";
    private static final Pattern SECRET_NAME =
            Pattern.compile("(?i).*(pass(?:word|wd)?|pwd|secret|token|credential)" + ".*");
    private static final Pattern URL_USER_PASSWORD = Pattern.compile("(://[^/@:\\s]*:)[^/@\\s]+@");
    private static final Pattern URL_PASSWORD_PARAMETER =
            Pattern.compile("(?i)([?&;][\\w.-]*(?:pass(?:word|wd)?|pwd|secret|token)[\\w.-]*=)[^&;\\s]*");
    /** Values shorter than this are not searched for in the output (they would mask ordinary words). */
    private static final int SHORTEST_SEARCHED = 4;

    private Masked() {}

    /** Whether a setting or option named {@code name} holds a secret. */
    static boolean secret(String name) {
        return SECRET_NAME.matcher(name).matches();
    }

    static List<String> args(List<String> args) {
        List<String> out = new ArrayList<>(args.size());
        for (String a : args) {
            int eq = a.indexOf('=');
            out.add(eq > 0 && secret(a.substring(0, eq)) ? a.substring(0, eq + 1) + MASK : inUrls(a));
        }
        return out;
    }

    /** {@code lines} with the secret values of {@code args} masked wherever they appear. */
    static List<String> lines(List<String> lines, List<String> args) {
        List<String> secrets = new ArrayList<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq > 0 && secret(a.substring(0, eq)) && a.length() - eq - 1 >= SHORTEST_SEARCHED) {
                secrets.add(a.substring(eq + 1));
            }
        }
        List<String> out = new ArrayList<>(lines.size());
        for (String line : lines) {
            String l = line;
            for (String s : secrets) {
                l = l.replace(s, MASK);
            }
            out.add(inUrls(l));
        }
        return out;
    }

    private static String inUrls(String s) {
        String t = URL_USER_PASSWORD.matcher(s).replaceAll("$1" + MASK + "@");
        return URL_PASSWORD_PARAMETER.matcher(t).replaceAll("$1" + MASK);
    }
}
