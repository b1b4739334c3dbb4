package io.github.volpex.erasure;

/**
 * A fragment failed verification: its bytes are truncated, foreign, of an unknown format version, or a checksum or
 * hash does not match. The decoders treat such a fragment as lost; {@link Fragment#parse(byte[])} throws this.
 *
 * <p>The streaming decoder also throws it when it cannot confirm, after the last stripe, that the data it has written
 * is the data that was encoded; the output must then be discarded.
 *
 * @since 0.1
 */
public final class CorruptFragmentException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The fragment index read from the fragment's verified header, or {@code -1} if it is not known. */
    private final int fragmentIndex;

    /**
     * Creates the exception.
     *
     * @param fragmentIndex the fragment's index, or {@code -1} if its header could not be verified
     * @param message what failed, with the offending values
     */
    public CorruptFragmentException(int fragmentIndex, String message) {
        super(message);
        this.fragmentIndex = fragmentIndex;
    }

    /**
     * Returns the index of the corrupt fragment, from its verified header.
     *
     * @return the index in [0, n), or {@code -1} when the header itself did not verify
     */
    public int fragmentIndex() {
        return fragmentIndex;
    }
}
