package io.github.volpex.dataspace.zookeeper;

import java.util.Objects;

/**
 * A value's blob could not be stored, was missing, or failed verification against its SHA-256 and length. A put that
 * fails so has not taken effect and left nothing visible (retrying the same call is safe); a read or get that fails so
 * has taken effect, and retrying it returns the same outcome once the store answers again.
 *
 * @since 0.1
 */
public final class BlobStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The blob's key in the store. */
    private final String key;

    /**
     * Creates the exception.
     *
     * @param key     the blob's key
     * @param message what went wrong
     * @param cause   the store's exception, or null
     * @throws NullPointerException if {@code key} or {@code message} is null
     */
    public BlobStoreException(String key, String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message") + " (blob " + Objects.requireNonNull(key, "key") + ")",
                cause);
        this.key = key;
    }

    /**
     * Returns the key of the blob concerned.
     *
     * @return the key
     */
    public String key() {
        return key;
    }
}
