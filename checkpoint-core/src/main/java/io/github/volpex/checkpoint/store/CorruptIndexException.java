package io.github.volpex.checkpoint.store;

/**
 * Thrown when bytes that should hold a {@link FragmentIndex} do not: wrong magic number, unknown version, failed
 * checksum, truncation, or values out of range. The store skips such copies and reads another.
 *
 * @since 0.1
 */
public class CorruptIndexException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the bytes
     * @param cause   the underlying failure, or null
     */
    public CorruptIndexException(String message, Throwable cause) {
        super(message, cause);
    }
}
