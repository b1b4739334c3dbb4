package io.github.volpex.checkpoint.store;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A SHA-256 digest (FIPS 180-4): 32 bytes that identify a fragment's or a checkpoint's content.
 *
 * <p>Immutable and thread-safe; equal when the bytes are equal.
 *
 * @since 0.1
 */
public final class Sha256 {

    /** The length of a digest, in bytes. */
    public static final int LENGTH_BYTES = 32;

    private final byte[] bytes;

    private Sha256(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * Returns the digest of {@code data}.
     *
     * @param data the bytes to digest
     * @return their SHA-256
     * @throws NullPointerException if {@code data} is null
     */
    public static Sha256 of(byte[] data) {
        Objects.requireNonNull(data, "data");
        MessageDigest digest = newDigest();
        return new Sha256(digest.digest(data));
    }

    /**
     * Wraps a digest computed elsewhere.
     *
     * @param digest the 32 bytes of a digest; copied
     * @return the digest
     * @throws NullPointerException     if {@code digest} is null
     * @throws IllegalArgumentException if {@code digest} is not 32 bytes long
     */
    public static Sha256 fromBytes(byte[] digest) {
        Objects.requireNonNull(digest, "digest");
        if (digest.length != LENGTH_BYTES) {
            throw new IllegalArgumentException("digest must be " + LENGTH_BYTES + " bytes: " + digest.length);
        }
        return new Sha256(digest.clone());
    }

    /**
     * Parses 64 hexadecimal digits.
     *
     * @param hex the digest in hexadecimal, either case
     * @return the digest
     * @throws NullPointerException     if {@code hex} is null
     * @throws IllegalArgumentException if {@code hex} is not 64 hexadecimal digits
     */
    public static Sha256 fromHex(String hex) {
        Objects.requireNonNull(hex, "hex");
        if (hex.length() != 2 * LENGTH_BYTES) {
            throw new IllegalArgumentException("hex must be " + 2 * LENGTH_BYTES + " digits: " + hex.length());
        }
        return new Sha256(HexFormat.of().parseHex(hex));
    }

    /** A new SHA-256 {@link MessageDigest}; every Java platform has one. */
    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the Java platform must provide SHA-256", e);
        }
    }

    /** Wraps the output of {@link MessageDigest#digest()} without copying. */
    static Sha256 wrap(byte[] digest) {
        return new Sha256(digest);
    }

    /**
     * Returns the digest's bytes.
     *
     * @return a copy of the 32 bytes
     */
    public byte[] toByteArray() {
        return bytes.clone();
    }

    /** The bytes, not copied, for this package's serialisation. */
    byte[] bytes() {
        return bytes;
    }

    /**
     * Returns whether this digest equals the digest of {@code data}, in time independent of where they differ.
     *
     * @param data bytes to check
     * @return {@code true} if {@code data} has this digest
     * @throws NullPointerException if {@code data} is null
     */
    public boolean matches(byte[] data) {
        return MessageDigest.isEqual(bytes, newDigest().digest(Objects.requireNonNull(data, "data")));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Sha256 other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /**
     * Returns the digest as 64 lower-case hexadecimal digits.
     *
     * @return the hexadecimal digest
     */
    @Override
    public String toString() {
        return HexFormat.of().formatHex(bytes);
    }
}
