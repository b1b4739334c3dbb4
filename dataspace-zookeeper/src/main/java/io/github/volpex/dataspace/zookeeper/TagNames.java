package io.github.volpex.dataspace.zookeeper;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Tags as znode names. Any Java string is a tag, but a znode name may not contain {@code /}, may not be {@code .} or
 * {@code ..}, and ZooKeeper rejects control and private-use characters. A tag's name is therefore its escaped form —
 * {@code [A-Za-z0-9_-]} kept, every other UTF-16 unit written as {@code %} and four hex digits, lone surrogates
 * included — when that is at most {@value #MAX_ESCAPED} characters long, and otherwise {@code ~} followed by the
 * SHA-256 (hex) of the tag's UTF-16BE units. Both forms are injective ({@code ~} and {@code %} themselves are always
 * escaped), so names compare as the tags do; a hashed name's tag is recovered from the namespace's dictionary.
 */
final class TagNames {

    /** The longest escaped name; longer tags are hashed. */
    static final int MAX_ESCAPED = 200;
    /** The first character of a hashed name. */
    static final char HASHED = '~';

    private static final HexFormat HEX = HexFormat.of();

    private TagNames() {
    }

    /** Returns the tag's znode name. */
    static String name(String tag) {
        StringBuilder name = new StringBuilder(Math.min(tag.length(), MAX_ESCAPED + 8));
        for (int i = 0; i < tag.length(); i++) {
            char c = tag.charAt(i);
            if (plain(c)) {
                name.append(c);
            } else {
                name.append('%').append(HEX.toHexDigits(c));
            }
            if (name.length() > MAX_ESCAPED) {
                return hashed(tag);
            }
        }
        return name.toString();
    }

    /** Tells whether the name is a hash whose tag only the dictionary knows. */
    static boolean isHashed(String name) {
        return name.charAt(0) == HASHED;
    }

    /** Returns the tag of an escaped name. */
    static String unescape(String name) {
        if (isHashed(name)) {
            throw new IllegalArgumentException("a hashed name cannot be unescaped: " + name);
        }
        StringBuilder tag = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '%') {
                tag.append((char) HexFormat.fromHexDigits(name, i + 1, i + 5));
                i += 4;
            } else {
                tag.append(c);
            }
        }
        return tag.toString();
    }

    private static boolean plain(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-';
    }

    private static String hashed(String tag) {
        ByteBuffer units = ByteBuffer.allocate(2 * tag.length());
        for (int i = 0; i < tag.length(); i++) {
            units.putChar(tag.charAt(i));
        }
        return HASHED + HEX.formatHex(sha256().digest(units.array()));
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException ex) {
            throw new AssertionError("every Java platform has SHA-256", ex);
        }
    }
}
