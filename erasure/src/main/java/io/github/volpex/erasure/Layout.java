package io.github.volpex.erasure;

/**
 * How data maps to fragments.
 *
 * @since 0.1
 */
public enum Layout {

    /**
     * The first {@code m} fragments are the data itself, cut into cells; the other {@code k} are Cauchy parity
     * ({@code a[i][j] = 1 / (i ⊕ j)}), byte-identical to ISA-L's {@code gf_gen_cauchy1_matrix} codes and to Hadoop's
     * {@code RSRawEncoder}. Decoding from the data fragments is a copy. This is Malluhi and Johnston's "optimized IDA".
     */
    SYSTEMATIC(1, true),

    /**
     * Rabin's original dispersal: every fragment is coded (fragment {@code i} holds inner products with the
     * Vandermonde row {@code (1, α, α², …, α^{m−1})}, {@code α = i + 1}), so no fragment reveals a plain piece of the
     * data; decoding always multiplies by an inverse.
     */
    RABIN(2, false),

    /**
     * Single parity: the first {@code m} fragments are the data itself, cut into cells, and fragment {@code m} is
     * their XOR ({@code n = m + 1}, parity row all ones), byte-identical to Hadoop's {@code XORRawEncoder}. Any
     * {@code m} of the {@code m + 1} fragments rebuild the data; encoding, decoding and repair are XOR and copies
     * only. Unlike {@link #SYSTEMATIC} with {@code k = 1}, whose parity row is the Cauchy row
     * {@code 1 / (m ⊕ j)}, it is not compatible with ISA-L's or Hadoop's Reed–Solomon.
     */
    XOR(3, true);

    private final int code;
    private final boolean dataInFirstFragments;

    Layout(int code, boolean dataInFirstFragments) {
        this.code = code;
        this.dataInFirstFragments = dataInFirstFragments;
    }

    /** Whether fragments {@code 0 … m−1} are the data cells themselves (an identity generator on top). */
    boolean dataInFirstFragments() {
        return dataInFirstFragments;
    }

    /** The byte that names the layout in the fragment header. */
    int code() {
        return code;
    }

    /** The layout a header byte names, or {@code null} for an unknown byte. */
    static Layout fromCode(int code) {
        for (Layout layout : values()) {
            if (layout.code == code) {
                return layout;
            }
        }
        return null;
    }
}
