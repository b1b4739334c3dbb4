package io.github.volpex.erasure;

import io.github.volpex.erasure.FragmentFormat.Header;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectableChannel;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.zip.CRC32C;

/**
 * Rabin's information dispersal over GF(2^8): data is cut into {@code n = m + k} fragments of which any {@code m}
 * rebuild it.
 *
 * <pre>{@code
 * IdaCodec codec = IdaCodec.systematic(6, 3);
 * List<Fragment> fragments = codec.encode(checkpoint);        // 9 fragments, each ⌈length / 6⌉ payload bytes
 * byte[] back = codec.decode(fragments.subList(3, 9));         // any 6 of them
 * List<Fragment> again = codec.decodeMissing(fragments.subList(3, 9), 0, 1, 2);   // repair lost ones
 * }</pre>
 *
 * <p><b>Striping.</b> The data is cut into stripes of {@code m × stripeSize} bytes; fragment {@code j < m} of the
 * systematic and XOR layouts holds the {@code j}-th cell of every stripe, and every coded byte is
 * {@code Σ_j a[i][j] · cell_j[p]} over the bytes at the same position {@code p} of the stripe's {@code m} cells. The
 * last stripe holds the remaining {@code r} bytes in cells of {@code ⌈r/m⌉} bytes (zero-padded), so each fragment
 * carries exactly {@code ⌈length/m⌉} payload bytes. Stripes bound the memory of the streaming API and carry one
 * CRC32C each.
 *
 * <p><b>Layouts.</b> {@link #systematic} (the default) keeps the data in the first {@code m} fragments and adds
 * Reed–Solomon parity byte-identical to ISA-L and Hadoop; {@link #rabin} codes every fragment; {@link #xor} adds a
 * single parity fragment, the XOR of the data fragments, and needs no field multiplication at all.
 *
 * <p><b>Limits.</b> {@code 1 ≤ m}, {@code 0 ≤ k}, {@code n = m + k ≤ 255}: the Rabin layout needs a distinct nonzero
 * field element per fragment, GF(2^8) has 255, and one limit for every layout keeps every count in one header byte.
 * {@code k = 0} is a plain split (systematic) or an invertible transform (Rabin); the XOR layout has {@code k = 1}.
 *
 * <p><b>Four ways in.</b> {@link #encode(byte[])} and {@link #decode(Collection)} work with verified {@link Fragment}
 * objects; {@link #decodeBytes(Collection)} takes fragments as stored bytes and treats corrupt ones as lost;
 * {@link #encode(InputStream, List)} and {@link #decode(List, OutputStream)} stream with bounded memory; and
 * {@link #encodePayloads} / {@link #decodePayloads} code bare payloads into caller-owned arrays without framing,
 * checksums or allocation.
 *
 * <p>Instances are immutable and thread-safe. Decoding matrices for recently seen erasure patterns are kept in a
 * bounded cache of {@value #DECODE_CACHE_SLOTS} entries per codec.
 *
 * @since 0.1
 */
public final class IdaCodec {

    /** The largest number of fragments, {@code n = m + k}. */
    public static final int MAX_FRAGMENTS = 255;

    /** The default stripe size: 64 KiB of payload per fragment per stripe. */
    public static final int DEFAULT_STRIPE_SIZE_BYTES = FragmentFormat.DEFAULT_STRIPE_BYTES;

    /** The largest stripe size, 4 MiB. */
    public static final int MAX_STRIPE_SIZE_BYTES = FragmentFormat.MAX_STRIPE_BYTES;

    /** Entries in the decoding-matrix cache (direct-mapped by erasure pattern). */
    static final int DECODE_CACHE_SLOTS = 64;

    static final int MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;

    private final Layout layout;
    private final int m;
    private final int k;
    private final int stripeBytes;
    /** The {@code n × m} generator: fragment {@code i} is row {@code i} times the data column. */
    private final byte[][] generator;
    /** Computes the coded fragments: the {@code k} parity rows (systematic, XOR) or all {@code n} rows (Rabin). */
    private final Kernel encoder;
    private final AtomicReferenceArray<DecodePlan> plans = new AtomicReferenceArray<>(DECODE_CACHE_SLOTS);
    private final Workspace.Pool workspaces;

    private IdaCodec(Layout layout, int m, int k, int stripeBytes, byte[][] generator) {
        this.layout = layout;
        this.m = m;
        this.k = k;
        this.stripeBytes = stripeBytes;
        this.generator = generator;
        int n = m + k;
        this.encoder = Kernel.of(layout.dataInFirstFragments() ? Arrays.copyOfRange(generator, m, n) : generator);
        this.workspaces = new Workspace.Pool(m, n);
    }

    private static void checkLimits(int m, int k) {
        if (m < 1 || m > MAX_FRAGMENTS) {
            throw new IllegalArgumentException("m must be in [1, " + MAX_FRAGMENTS + "]: " + m);
        }
        if (k < 0 || k > MAX_FRAGMENTS - m) {
            throw new IllegalArgumentException(
                    "k must be in [0, " + (MAX_FRAGMENTS - m) + "] for m = " + m + ": " + k);
        }
    }

    /**
     * Returns a systematic codec: fragments {@code 0 … m−1} are the data itself and fragments {@code m … n−1} are
     * Cauchy parity, {@code a[i][j] = 1 / (i ⊕ j)}, byte-identical to ISA-L's {@code gf_gen_cauchy1_matrix} and to
     * Hadoop's {@code RSRawEncoder}. Every {@code m × m} submatrix of {@code [I; Cauchy]} is invertible, so any
     * {@code m} fragments rebuild the data.
     *
     * <p>With {@code k = 1} the parity row is {@code 1 / (m ⊕ j)}, not all ones. It stays the Cauchy row so that
     * {@code systematic(m, 1)} parity is the same bytes ISA-L and Hadoop's Reed–Solomon coders compute, and the same
     * bytes as fragment {@code m} of {@code systematic(m, k)} for every {@code k} (parity can be added later without
     * recoding); the price is a field multiplication per data byte. When that compatibility is not needed,
     * {@link #xor(int) xor(m)} is the faster choice for one parity fragment: its parity is the plain XOR of the data
     * fragments, coded with no multiplication (and byte-identical to Hadoop's {@code XORRawEncoder} instead).
     *
     * @param m the number of fragments that rebuild the data, in [1, 255]
     * @param k the number of redundant fragments, in [0, 255 − m]
     * @return the codec, with the {@linkplain #DEFAULT_STRIPE_SIZE_BYTES default stripe size}
     * @throws IllegalArgumentException if {@code m} or {@code k} is out of range
     */
    public static IdaCodec systematic(int m, int k) {
        checkLimits(m, k);
        int n = m + k;
        byte[][] g = new byte[n][m];
        for (int j = 0; j < m; j++) {
            g[j][j] = 1;
        }
        for (int i = m; i < n; i++) {
            for (int j = 0; j < m; j++) {
                g[i][j] = (byte) Gf256.inv(i ^ j);
            }
        }
        return new IdaCodec(Layout.SYSTEMATIC, m, k, DEFAULT_STRIPE_SIZE_BYTES, g);
    }

    /**
     * Returns a non-systematic codec, Rabin's original dispersal: fragment {@code i} holds, for each position, the
     * inner product of the {@code m} data cells with the Vandermonde row {@code (1, α, α², …, α^{m−1})},
     * {@code α = i + 1}. Distinct points make every {@code m} rows independent, so any {@code m} fragments rebuild
     * the data; no fragment holds plain data.
     *
     * @param m the number of fragments that rebuild the data, in [1, 255]
     * @param k the number of redundant fragments, in [0, 255 − m]
     * @return the codec, with the {@linkplain #DEFAULT_STRIPE_SIZE_BYTES default stripe size}
     * @throws IllegalArgumentException if {@code m} or {@code k} is out of range
     */
    public static IdaCodec rabin(int m, int k) {
        checkLimits(m, k);
        int n = m + k;
        byte[][] g = new byte[n][m];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                g[i][j] = (byte) Gf256.pow(i + 1, j);
            }
        }
        return new IdaCodec(Layout.RABIN, m, k, DEFAULT_STRIPE_SIZE_BYTES, g);
    }

    /**
     * Returns a single-parity codec: fragments {@code 0 … m−1} are the data itself and fragment {@code m} is their
     * XOR, byte-identical to Hadoop's {@code XORRawEncoder} (parity row all ones). Every {@code m × m} submatrix of
     * {@code [I; 1 … 1]} is invertible, so any {@code m} of the {@code m + 1} fragments rebuild the data: a lost
     * fragment is the XOR of the other {@code m}. Encoding, decoding and repair touch the data with XORs and copies
     * only, eight bytes at a time, never a field multiplication; decoding with every data fragment at hand is a copy.
     *
     * <p>This is the fastest way to survive one lost fragment. It is not {@code systematic(m, 1)}, whose parity row
     * is the Cauchy row {@code 1 / (m ⊕ j)} for compatibility with ISA-L and Hadoop's Reed–Solomon; the two
     * layouts' fragments are never mixed.
     *
     * @param m the number of data fragments, in [1, 254]; {@code n = m + 1}
     * @return the codec, with the {@linkplain #DEFAULT_STRIPE_SIZE_BYTES default stripe size}
     * @throws IllegalArgumentException if {@code m} is out of range
     */
    public static IdaCodec xor(int m) {
        if (m < 1 || m > MAX_FRAGMENTS - 1) {
            throw new IllegalArgumentException("m must be in [1, " + (MAX_FRAGMENTS - 1) + "]: " + m);
        }
        byte[][] g = new byte[m + 1][m];
        for (int j = 0; j < m; j++) {
            g[j][j] = 1;
            g[m][j] = 1;
        }
        return new IdaCodec(Layout.XOR, m, 1, DEFAULT_STRIPE_SIZE_BYTES, g);
    }

    /**
     * Returns a codec that is this one with another stripe size. The stripe size is the payload each fragment holds
     * per stripe: it sets the granularity of the per-stripe CRC32C and the memory of the streaming API (about
     * {@code (m + n) × stripeSizeBytes}); it does not change the coded bytes of any position.
     *
     * @param stripeSizeBytes the stripe size in bytes, in [1, {@value #MAX_STRIPE_SIZE_BYTES}]
     * @return the codec with that stripe size
     * @throws IllegalArgumentException if {@code stripeSizeBytes} is out of range
     */
    public IdaCodec withStripeSizeBytes(int stripeSizeBytes) {
        checkStripeSize(stripeSizeBytes);
        return stripeSizeBytes == stripeBytes ? this : new IdaCodec(layout, m, k, stripeSizeBytes, generator);
    }

    private static void checkStripeSize(int stripeSizeBytes) {
        if (stripeSizeBytes < 1 || stripeSizeBytes > MAX_STRIPE_SIZE_BYTES) {
            throw new IllegalArgumentException(
                    "stripeSizeBytes must be in [1, " + MAX_STRIPE_SIZE_BYTES + "]: " + stripeSizeBytes);
        }
    }

    /**
     * Returns the layout.
     *
     * @return the layout
     */
    public Layout layout() {
        return layout;
    }

    /**
     * Returns {@code m}, the number of fragments that rebuild the data.
     *
     * @return {@code m}
     */
    public int m() {
        return m;
    }

    /**
     * Returns {@code k}, the number of redundant fragments.
     *
     * @return {@code k}
     */
    public int k() {
        return k;
    }

    /**
     * Returns {@code n = m + k}, the number of fragments an encoding produces.
     *
     * @return {@code n}
     */
    public int n() {
        return m + k;
    }

    /**
     * Returns the stripe size: the payload bytes each fragment holds per full stripe.
     *
     * @return the stripe size in bytes
     */
    public int stripeSizeBytes() {
        return stripeBytes;
    }

    /**
     * Returns the generator coefficient of fragment {@code i} for data cell {@code j}.
     *
     * @param i the fragment index, in [0, n)
     * @param j the data cell, in [0, m)
     * @return the coefficient, in [0, 255]
     * @throws IndexOutOfBoundsException if {@code i} or {@code j} is out of range
     */
    public int coefficient(int i, int j) {
        Objects.checkIndex(i, n());
        Objects.checkIndex(j, m);
        return generator[i][j] & 0xFF;
    }

    /**
     * Returns the payload bytes of each fragment for data of {@code dataLength} bytes: {@code ⌈dataLength / m⌉}.
     *
     * @param dataLength the length of the data, in bytes; {@code ≥ 0}
     * @return the payload length of one fragment, in bytes
     * @throws IllegalArgumentException if {@code dataLength} is negative
     */
    public long payloadLength(long dataLength) {
        if (dataLength < 0) {
            throw new IllegalArgumentException("dataLength must be >= 0: " + dataLength);
        }
        return dataLength / m + (dataLength % m == 0 ? 0 : 1);
    }

    // ---------------------------------------------------------------------------------------------- fragments

    /**
     * Encodes data into {@code n} verified fragments.
     *
     * @param data the data; not modified or retained
     * @return the fragments, by index
     * @throws NullPointerException if {@code data} is null
     */
    public List<Fragment> encode(byte[] data) {
        Objects.requireNonNull(data, "data");
        return encode(data, 0, data.length);
    }

    /**
     * Encodes the remaining bytes of a buffer, heap or direct, into {@code n} verified fragments. The buffer's
     * position, limit and contents are not changed.
     *
     * @param data the data, from its position to its limit; not retained
     * @return the fragments, by index
     * @throws NullPointerException if {@code data} is null
     */
    public List<Fragment> encode(ByteBuffer data) {
        Objects.requireNonNull(data, "data");
        if (data.hasArray()) {
            return encode(data.array(), data.arrayOffset() + data.position(), data.remaining());
        }
        ByteBuffer source = data.duplicate();
        int length = source.remaining();
        int payload = (int) payloadLength(length);
        int n = n();
        byte[][] payloads = new byte[n][payload];
        int stripeData = m * stripeBytes;
        byte[] stripe = new byte[Math.min(stripeData, length)];
        MessageDigest dataHash = Hashing.sha256();
        int[] dataCrcs = new int[(int) FragmentFormat.recordCount(length, stripeData)];
        CRC32C crc = new CRC32C();
        Workspace ws = workspaces.take();
        try {
            for (int s = 0, base = 0; ; s++) {
                int d = Math.min(stripeData, length - base);
                source.get(stripe, 0, d);
                dataHash.update(stripe, 0, d);
                dataCrcs[s] = FragmentFormat.dataCrc(crc, stripe, 0, d);
                encodeStripe(ws, stripe, 0, d, payloads, s * stripeBytes);
                base += d;
                if (d < stripeData) {
                    break;
                }
            }
        } finally {
            workspaces.give(ws);
        }
        return fragments(length, payloads, dataCrcs, dataHash.digest());
    }

    private List<Fragment> encode(byte[] data, int offset, int length) {
        int payload = (int) payloadLength(length);
        byte[][] payloads = new byte[n()][payload];
        encodePayloads(data, offset, length, payloads);
        MessageDigest sha = Hashing.sha256();
        sha.update(data, offset, length);
        return fragments(length, payloads, FragmentFormat.dataCrcs(data, offset, length, m * stripeBytes),
                sha.digest());
    }

    private List<Fragment> fragments(long length, byte[][] payloads, int[] dataCrcs, byte[] dispersalId) {
        MessageDigest sha = Hashing.sha256();
        Fragment[] out = new Fragment[payloads.length];
        for (int i = 0; i < payloads.length; i++) {
            out[i] = Fragment.of(header(i, stripeBytes), length, payloads[i], dataCrcs, dispersalId, sha);
        }
        return List.of(out);
    }

    private Header header(int index, int stripe) {
        return new Header(layout, m, n(), index, stripe);
    }

    /**
     * Rebuilds the data from any {@code m} distinct fragments of one dispersal, in any order; duplicates are
     * tolerated and extras ignored. The rebuilt data is checked against the fragments' dispersal id.
     *
     * <p>Fragments encoded with another layout, {@code m} or {@code n} than this codec's are treated as lost, and so
     * are fragments of another dispersal when {@code m} distinct fragments of one dispersal are given (a repository
     * that kept an older checkpoint's fragment does not stop the decode). When the first {@code m} fragments do not
     * rebuild data matching the dispersal id, other choices among the given ones are tried, stripe by stripe.
     *
     * @param fragments at least {@code m} distinct fragments of the dispersal to rebuild
     * @return the data
     * @throws NotEnoughFragmentsException if no dispersal has {@code m} distinct usable fragments; it says how many
     *         each dispersal has and what set the others apart
     * @throws IllegalArgumentException if two different dispersals each have {@code m} distinct fragments (name the
     *         one wanted with {@link #decode(Collection, String)}), or the data would not fit in an array
     * @throws CorruptFragmentException if no choice of {@code m} fragments rebuilds data matching the dispersal id
     *         (payloads not produced from this data)
     * @throws NullPointerException if {@code fragments} or an element is null
     */
    public byte[] decode(Collection<Fragment> fragments) {
        return Recovery.fromFragments(this, fragments, null, "decode").dataArray();
    }

    /**
     * Rebuilds the data of one named dispersal from fragments that may include others, as
     * {@link #decode(Collection)} does; fragments of any other dispersal are treated as lost.
     *
     * @param fragments at least {@code m} distinct fragments of the dispersal to rebuild, and any others
     * @param dispersalId the dispersal to rebuild: its {@link Fragment#dispersalId()}, 64 hexadecimal digits (either
     *        case)
     * @return the data, whose SHA-256 is {@code dispersalId}
     * @throws NotEnoughFragmentsException if fewer than {@code m} distinct usable fragments of that dispersal are
     *         given
     * @throws IllegalArgumentException if {@code dispersalId} is not 64 hexadecimal digits, or the data would not
     *         fit in an array
     * @throws CorruptFragmentException if no choice of {@code m} fragments rebuilds data matching the dispersal id
     * @throws NullPointerException if an argument or element is null
     */
    public byte[] decode(Collection<Fragment> fragments, String dispersalId) {
        Objects.requireNonNull(dispersalId, "dispersalId");
        return Recovery.fromFragments(this, fragments, dispersalId, "decode").dataArray();
    }

    /**
     * Rebuilds the data from fragments in their stored form ({@link Fragment#toByteArray()}), any order. A fragment
     * that does not verify (truncated, foreign, wrong version, checksum or hash mismatch), was encoded with other
     * parameters, or belongs to another dispersal than the one that has {@code m} distinct verified fragments, is
     * treated as lost; {@link #decodeBytesWithReport(Collection)} says which and why.
     *
     * <p>The fragments are verified in index order, only until one dispersal has {@code m}; after that only the ones
     * whose trailer names another dispersal are verified (to set them aside, or to find that two dispersals could be
     * rebuilt). When the first {@code m} fragments do not rebuild data matching the dispersal id (one relabelled with
     * another index, or altered with its checksums recomputed), the remaining fragments of that dispersal are
     * verified and other choices tried, stripe by stripe, each stripe checked against its data checksum.
     *
     * @param encodedFragments the stored fragments; not modified or retained
     * @return the data
     * @throws NotEnoughFragmentsException if no dispersal has {@code m} distinct verified fragments; it lists every
     *         rejected fragment and why, and how many verified of each dispersal
     * @throws IllegalArgumentException if two different dispersals each have {@code m} distinct verified fragments
     *         (name the one wanted with {@link #decodeBytes(Collection, String)}), or the data would not fit in an
     *         array
     * @throws CorruptFragmentException if no choice of {@code m} verified fragments rebuilds data matching the
     *         dispersal id
     * @throws NullPointerException if {@code encodedFragments} or an element is null
     */
    public byte[] decodeBytes(Collection<byte[]> encodedFragments) {
        return Recovery.fromBytes(this, encodedFragments, null, "decodeBytes", false).dataArray();
    }

    /**
     * Rebuilds the data of one named dispersal from stored fragments that may include others, as
     * {@link #decodeBytes(Collection)} does; a fragment whose trailer names another dispersal is set aside without
     * being verified.
     *
     * @param encodedFragments the stored fragments; not modified or retained
     * @param dispersalId the dispersal to rebuild: its {@link Fragment#dispersalId()} or
     *        {@link DispersalSummary#dispersalId()}, 64 hexadecimal digits (either case)
     * @return the data, whose SHA-256 is {@code dispersalId}
     * @throws NotEnoughFragmentsException if fewer than {@code m} distinct fragments of that dispersal verify
     * @throws IllegalArgumentException if {@code dispersalId} is not 64 hexadecimal digits, or the data would not
     *         fit in an array
     * @throws CorruptFragmentException if no choice of {@code m} verified fragments rebuilds data matching the
     *         dispersal id
     * @throws NullPointerException if an argument or element is null
     */
    public byte[] decodeBytes(Collection<byte[]> encodedFragments, String dispersalId) {
        Objects.requireNonNull(dispersalId, "dispersalId");
        return Recovery.fromBytes(this, encodedFragments, dispersalId, "decodeBytes", false).dataArray();
    }

    /**
     * Rebuilds the data as {@link #decodeBytes(Collection)} does and reports which fragments it used and which it set
     * aside, and why.
     *
     * @param encodedFragments the stored fragments; not modified or retained
     * @return the data, its dispersal id, the positions used and the rejections
     * @throws NotEnoughFragmentsException as {@link #decodeBytes(Collection)}
     * @throws IllegalArgumentException as {@link #decodeBytes(Collection)}
     * @throws CorruptFragmentException as {@link #decodeBytes(Collection)}
     * @throws NullPointerException if {@code encodedFragments} or an element is null
     */
    public DecodeResult decodeBytesWithReport(Collection<byte[]> encodedFragments) {
        return Recovery.fromBytes(this, encodedFragments, null, "decodeBytesWithReport", true);
    }

    /**
     * Rebuilds the data of one named dispersal as {@link #decodeBytes(Collection, String)} does and reports which
     * fragments it used and which it set aside, and why.
     *
     * @param encodedFragments the stored fragments; not modified or retained
     * @param dispersalId the dispersal to rebuild, 64 hexadecimal digits (either case)
     * @return the data, its dispersal id, the positions used and the rejections
     * @throws NotEnoughFragmentsException as {@link #decodeBytes(Collection, String)}
     * @throws IllegalArgumentException as {@link #decodeBytes(Collection, String)}
     * @throws CorruptFragmentException as {@link #decodeBytes(Collection, String)}
     * @throws NullPointerException if an argument or element is null
     */
    public DecodeResult decodeBytesWithReport(Collection<byte[]> encodedFragments, String dispersalId) {
        Objects.requireNonNull(dispersalId, "dispersalId");
        return Recovery.fromBytes(this, encodedFragments, dispersalId, "decodeBytesWithReport", true);
    }

    /** Why a fragment with these header fields cannot be used with this codec, or {@code null}. */
    String foreign(Layout fragmentLayout, int fragmentM, int fragmentN) {
        if (fragmentLayout != layout || fragmentM != m || fragmentN != n()) {
            return "encoded with " + describe(fragmentLayout, fragmentM, fragmentN - fragmentM)
                    + ", not this codec's " + describe(layout, m, k);
        }
        return null;
    }

    /** The factory call that makes a codec of these parameters, e.g. {@code systematic(6, 3)} or {@code xor(6)}. */
    static String describe(Layout layout, int m, int k) {
        String name = layout.name().toLowerCase(java.util.Locale.ROOT);
        return layout == Layout.XOR ? name + "(" + m + ")" : name + "(" + m + ", " + k + ")";
    }

    /**
     * Regenerates the fragments with the given indexes from any {@code m} distinct fragments of one encoding, to
     * replace lost ones. The regenerated fragments are byte-identical to the originals.
     *
     * <p>Each given fragment has verified on its own, but only decoding can show that their payloads belong to the
     * same data: when fragments come from storage that might hold deliberately altered ones, {@link #decode} them
     * (which checks the dispersal id) before repairing from them.
     *
     * <p>Fragments of another dispersal among them are ignored when one dispersal has {@code m} distinct fragments,
     * as in {@link #decode(Collection)}.
     *
     * @param available at least {@code m} distinct fragments of one dispersal
     * @param indexes the indexes to regenerate, each in [0, n), no duplicates
     * @return the regenerated fragments, in the order of {@code indexes}
     * @throws NotEnoughFragmentsException if no dispersal has {@code m} distinct usable fragments
     * @throws IllegalArgumentException if an index is out of range or repeated, or two different dispersals each
     *         have {@code m} distinct fragments
     * @throws NullPointerException if an argument or element is null
     */
    public List<Fragment> decodeMissing(Collection<Fragment> available, int... indexes) {
        Objects.requireNonNull(indexes, "indexes");
        boolean[] seen = new boolean[n()];
        for (int index : indexes) {
            if (index < 0 || index >= n()) {
                throw new IllegalArgumentException("indexes must be in [0, " + (n() - 1) + "]: " + index);
            }
            if (seen[index]) {
                throw new IllegalArgumentException("indexes must be distinct: " + index + " repeats");
            }
            seen[index] = true;
        }
        Recovery.Group group = Recovery.completeGroup(this, available, "decodeMissing");
        Fragment first = group.first;
        byte[][] payloads = new byte[n()][];
        for (Recovery.Candidate c : group.members) {
            if (payloads[c.index()] == null) {
                payloads[c.index()] = c.fragment().payloadArray();
            }
        }
        int stripe = first.stripeSizeBytes();
        int payload = first.payloadLength();
        byte[][] regenerated = new byte[indexes.length][payload];
        DecodePlan plan = plan(payloads);
        byte[][] rows = new byte[indexes.length][];
        for (int r = 0; r < indexes.length; r++) {
            rows[r] = generator[indexes[r]];
        }
        Kernel kernel = Kernel.of(Gf256.multiply(rows, plan.inverse));
        Workspace ws = workspaces.take();
        try {
            int stripeData = m * stripe;
            long remaining = first.dataLength();
            for (int s = 0; ; s++) {
                int d = (int) Math.min(remaining, stripeData);
                int cell = Fragment.ceilDiv(d, m);
                int at = s * stripe;
                for (int t = 0; t < m; t++) {
                    ws.inArrays[t] = payloads[plan.selection[t]];
                    ws.inOffsets[t] = at;
                    ws.inAvailable[t] = cell;
                }
                for (int r = 0; r < indexes.length; r++) {
                    ws.outArrays[r] = regenerated[r];
                    ws.outOffsets[r] = at;
                    ws.outRoom[r] = cell;
                }
                kernel.apply(ws, ws.inArrays, ws.inOffsets, ws.inAvailable, ws.outArrays, ws.outOffsets, ws.outRoom,
                        cell);
                remaining -= d;
                if (d < stripeData) {
                    break;
                }
            }
        } finally {
            workspaces.give(ws);
        }
        MessageDigest sha = Hashing.sha256();
        Fragment[] out = new Fragment[indexes.length];
        for (int r = 0; r < indexes.length; r++) {
            out[r] = Fragment.of(header(indexes[r], stripe), first.dataLength(), regenerated[r],
                    first.dataCrcs(), first.dispersalIdBytes(), sha);
        }
        return List.of(out);
    }

    // ---------------------------------------------------------------------------------------------- payloads

    /**
     * Computes the {@code n} bare payloads of {@code data} into caller-owned arrays: no framing, checksums or
     * hashes, and no allocation once the codec has run on the calling thread. The payloads are the ones
     * {@link Fragment#payload()} holds for the same data and stripe size.
     *
     * @param data the data array
     * @param offset where the data starts
     * @param length the number of data bytes
     * @param payloads {@code n} distinct arrays, none of them {@code data}, each at least
     *        {@link #payloadLength(long) payloadLength(length)} bytes; the first {@code payloadLength(length)} bytes of
     *        each are overwritten
     * @throws IndexOutOfBoundsException if {@code offset} and {@code length} do not lie within {@code data}
     * @throws IllegalArgumentException if {@code payloads} does not hold {@code n} arrays of sufficient length, or
     *                                  holds {@code data} or one array twice
     * @throws NullPointerException if an argument or a payload array is null
     */
    public void encodePayloads(byte[] data, int offset, int length, byte[][] payloads) {
        Objects.checkFromIndexSize(offset, length, data.length);
        checkPayloads(payloads, length, true);
        checkApart(payloads, data, true);
        Workspace ws = workspaces.take();
        try {
            int stripeData = m * stripeBytes;
            for (int s = 0, base = 0; ; s++) {
                int d = Math.min(stripeData, length - base);
                encodeStripe(ws, data, offset + base, d, payloads, s * stripeBytes);
                base += d;
                if (d < stripeData) {
                    break;
                }
            }
        } finally {
            workspaces.give(ws);
        }
    }

    private void checkPayloads(byte[][] payloads, long length, boolean all) {
        Objects.requireNonNull(payloads, "payloads");
        if (payloads.length != n()) {
            throw new IllegalArgumentException("payloads must hold n = " + n() + " arrays: " + payloads.length);
        }
        long need = payloadLength(length);
        for (int i = 0; i < payloads.length; i++) {
            if (payloads[i] == null) {
                if (all) {
                    throw new NullPointerException("payloads[" + i + "]");
                }
            } else if (payloads[i].length < need) {
                throw new IllegalArgumentException("payloads[" + i + "] must hold at least " + need + " bytes: "
                        + payloads[i].length);
            }
        }
    }

    /**
     * The kernels read their inputs while they write their outputs: an output array that is also an input (or, when
     * {@code distinct}, one payload array given twice) would be coded from bytes already overwritten.
     */
    private static void checkApart(byte[][] payloads, byte[] data, boolean distinct) {
        for (int i = 0; i < payloads.length; i++) {
            if (payloads[i] == null) {
                continue;
            }
            if (payloads[i] == data) {
                throw new IllegalArgumentException("payloads[" + i + "] must not be the data array");
            }
            for (int j = 0; distinct && j < i; j++) {
                if (payloads[j] == payloads[i]) {
                    throw new IllegalArgumentException("payloads[" + j + "] and payloads[" + i
                            + "] must be distinct arrays");
                }
            }
        }
    }

    /** Codes one stripe of {@code d} data bytes at {@code src[srcOffset…]} into cells at {@code dst[i][dstOffset…]}. */
    private void encodeStripe(Workspace ws, byte[] src, int srcOffset, int d, byte[][] dst, int dstOffset) {
        int cell = Fragment.ceilDiv(d, m);
        if (cell == 0) {
            return;
        }
        for (int j = 0; j < m; j++) {
            int available = Math.max(0, Math.min(cell, d - j * cell));
            ws.inArrays[j] = src;
            ws.inOffsets[j] = srcOffset + j * cell;
            ws.inAvailable[j] = available;
        }
        int outputs = encoder.outputs();
        int first = layout.dataInFirstFragments() ? m : 0;
        for (int r = 0; r < outputs; r++) {
            ws.outArrays[r] = dst[first + r];
            ws.outOffsets[r] = dstOffset;
            ws.outRoom[r] = cell;
        }
        // The systematic layouts' first m fragments are the data cells themselves, zero-padded.
        encoder.applyAndCopy(ws, ws.inArrays, ws.inOffsets, ws.inAvailable, ws.outArrays, ws.outOffsets, ws.outRoom,
                cell, layout.dataInFirstFragments() ? m : 0, dst, dstOffset);
    }

    /**
     * Rebuilds data from bare payloads into a caller-owned array, with no allocation once the erasure pattern's
     * decoding matrix is cached. The first {@code m} present payloads, by index, are used.
     *
     * @param payloads {@code n} entries by fragment index, {@code null} for a lost fragment; present ones hold at
     *        least {@link #payloadLength(long) payloadLength(length)} bytes, as {@link #encodePayloads} wrote them with
     *        this codec's stripe size
     * @param data where to write the data; none of the payloads
     * @param offset where in {@code data} to start
     * @param length the original data length, in bytes
     * @throws NotEnoughFragmentsException if fewer than {@code m} payloads are present
     * @throws IndexOutOfBoundsException if {@code offset} and {@code length} do not lie within {@code data}
     * @throws IllegalArgumentException if {@code payloads} does not hold {@code n} entries or one is too short, or
     *                                  one of them is {@code data}
     * @throws NullPointerException if {@code payloads} or {@code data} is null
     */
    public void decodePayloads(byte[][] payloads, byte[] data, int offset, int length) {
        decodePayloads(payloads, data, offset, length, stripeBytes);
    }

    void decodePayloads(byte[][] payloads, byte[] data, int offset, int length, int stripe) {
        Objects.checkFromIndexSize(offset, length, data.length);
        checkPayloads(payloads, length, false);
        checkApart(payloads, data, false);
        DecodePlan plan = plan(payloads);
        Workspace ws = workspaces.take();
        try {
            int stripeData = m * stripe;
            for (int s = 0, base = 0; ; s++) {
                int d = Math.min(stripeData, length - base);
                decodeStripe(ws, plan, payloads, s * stripe, d, data, offset + base);
                base += d;
                if (d < stripeData) {
                    break;
                }
            }
        } finally {
            workspaces.give(ws);
        }
    }

    /** Rebuilds one stripe of {@code d} bytes from the selected cells at {@code cells[i][cellOffset…]}. */
    void decodeStripe(Workspace ws, DecodePlan plan, byte[][] cells, int cellOffset, int d, byte[] dst,
                      int dstOffset) {
        int cell = Fragment.ceilDiv(d, m);
        if (cell == 0) {
            return;
        }
        int[] selection = plan.selection;
        for (int t = 0; t < m; t++) {
            int index = selection[t];
            ws.inArrays[t] = cells[index];
            ws.inOffsets[t] = cellOffset;
            ws.inAvailable[t] = cell;
            if (layout.dataInFirstFragments() && index < m) {
                int room = Math.max(0, Math.min(cell, d - index * cell));
                if (room > 0) {
                    System.arraycopy(cells[index], cellOffset, dst, dstOffset + index * cell, room);
                }
            }
        }
        int[] targets = plan.targets;
        for (int r = 0; r < targets.length; r++) {
            int j = targets[r];
            ws.outArrays[r] = dst;
            ws.outOffsets[r] = dstOffset + j * cell;
            ws.outRoom[r] = Math.max(0, Math.min(cell, d - j * cell));
        }
        plan.kernel.apply(ws, ws.inArrays, ws.inOffsets, ws.inAvailable, ws.outArrays, ws.outOffsets, ws.outRoom,
                cell);
    }

    // ---------------------------------------------------------------------------------------------- streams

    /**
     * Encodes a stream into {@code n} fragment streams, stripe by stripe, in about {@code (m + n) × stripeSizeBytes}
     * bytes of memory whatever the data length. Each sink receives exactly the bytes of
     * {@link Fragment#toByteArray()} for the same data.
     *
     * @param data the data, read to its end; not closed
     * @param fragmentSinks {@code n} streams, by fragment index; written, not flushed or closed
     * @return the data length, dispersal id and content ids
     * @throws IOException if reading {@code data} or writing a sink fails
     * @throws IllegalArgumentException if {@code fragmentSinks} does not hold {@code n} streams
     * @throws NullPointerException if an argument or element is null
     */
    public DispersalSummary encode(InputStream data, List<? extends OutputStream> fragmentSinks) throws IOException {
        Objects.requireNonNull(data, "data");
        return encodeStream(data::read, fragmentSinks);
    }

    /**
     * Encodes a channel into {@code n} fragment streams, as {@link #encode(InputStream, List)} does. The channel is
     * read in blocking mode: a selectable channel configured non-blocking would have this method spin while it has
     * no data, so it is refused.
     *
     * @param data the data, read to its end; not closed
     * @param fragmentSinks {@code n} streams, by fragment index; written, not flushed or closed
     * @return the data length, dispersal id and content ids
     * @throws IOException if reading {@code data} or writing a sink fails
     * @throws IllegalArgumentException if {@code fragmentSinks} does not hold {@code n} streams, or {@code data} is
     *         a {@link SelectableChannel} in non-blocking mode
     * @throws NullPointerException if an argument or element is null
     */
    public DispersalSummary encode(ReadableByteChannel data, List<? extends OutputStream> fragmentSinks)
            throws IOException {
        Objects.requireNonNull(data, "data");
        if (data instanceof SelectableChannel selectable && !selectable.isBlocking()) {
            throw new IllegalArgumentException("data must be a blocking channel: " + data
                    + " is in non-blocking mode");
        }
        return encodeStream((b, off, len) -> data.read(ByteBuffer.wrap(b, off, len)), fragmentSinks);
    }

    /** A source of data bytes: InputStream.read semantics (−1 at the end; may return 0 for a channel). */
    @FunctionalInterface
    private interface Source {
        int read(byte[] b, int off, int len) throws IOException;
    }

    private DispersalSummary encodeStream(Source source, List<? extends OutputStream> sinks) throws IOException {
        Objects.requireNonNull(sinks, "fragmentSinks");
        int n = n();
        if (sinks.size() != n) {
            throw new IllegalArgumentException("fragmentSinks must hold n = " + n + " streams: " + sinks.size());
        }
        List<OutputStream> outs = new ArrayList<>(sinks);
        outs.forEach(o -> Objects.requireNonNull(o, "fragmentSinks element"));
        int stripeData = m * stripeBytes;
        byte[] stripe = new byte[stripeData];
        byte[][] records = new byte[n][stripeBytes + FragmentFormat.RECORD_OVERHEAD_BYTES];
        MessageDigest dataHash = Hashing.sha256();
        MessageDigest[] payloadHash = new MessageDigest[n];
        byte[][] heads = new byte[n][FragmentFormat.HEADER_BYTES];
        for (int i = 0; i < n; i++) {
            payloadHash[i] = Hashing.sha256();
            header(i, stripeBytes).write(heads[i]);
            outs.get(i).write(heads[i]);
        }
        CRC32C crc = new CRC32C();
        long total = 0;
        Workspace ws = workspaces.take();
        try {
            for (long s = 0; ; s++) {
                int d = fill(source, stripe);
                int cell = Fragment.ceilDiv(d, m);
                int dataCrc = FragmentFormat.dataCrc(crc, stripe, 0, d);
                encodeStripe(ws, stripe, 0, d, records, 4);
                for (int i = 0; i < n; i++) {
                    byte[] record = records[i];
                    FragmentFormat.putInt(record, 0, d);
                    FragmentFormat.putInt(record, 4 + cell, dataCrc);
                    FragmentFormat.putInt(record, 8 + cell,
                            FragmentFormat.recordCrc(crc, i, (int) s, d, record, 4, cell, dataCrc));
                    payloadHash[i].update(record, 4, cell);
                    outs.get(i).write(record, 0, cell + FragmentFormat.RECORD_OVERHEAD_BYTES);
                }
                dataHash.update(stripe, 0, d);
                total += d;
                if (d < stripeData) {
                    break;
                }
            }
        } finally {
            workspaces.give(ws);
        }
        byte[] dispersal = dataHash.digest();
        List<String> contentIds = new ArrayList<>(n);
        byte[] trailer = new byte[FragmentFormat.TRAILER_BYTES];
        for (int i = 0; i < n; i++) {
            byte[] content = payloadHash[i].digest();
            FragmentFormat.writeTrailer(heads[i], trailer, 0, total, dispersal, content);
            outs.get(i).write(trailer);
            contentIds.add(FragmentFormat.hex(content));
        }
        return new DispersalSummary(layout, m, n, total, FragmentFormat.hex(dispersal), contentIds);
    }

    private static int fill(Source source, byte[] buffer) throws IOException {
        int filled = 0;
        while (filled < buffer.length) {
            int got = source.read(buffer, filled, buffer.length - filled);
            if (got < 0) {
                break;
            }
            filled += got;
        }
        return filled;
    }

    /**
     * Rebuilds data from fragment streams (each one fragment's stored bytes) and writes it to {@code data}, stripe by
     * stripe, in about {@code 2m × stripeSize} bytes of memory (plus one cell per spare stream brought in).
     *
     * <p>It treats as lost what {@link #decodeBytes(Collection)} treats as lost. Every record's CRC32C is verified
     * before its cell is used, and every rebuilt stripe is checked against the CRC32C of the original stripe, carried
     * by every fragment, before it is written. A fragment stream whose header or a record does not verify, that ends
     * early, whose reads throw, whose stripe size differs from the other streams' (a forged header), or whose record
     * of a stripe disagrees with the records of {@code m} other streams (a fragment of another dispersal, or a record
     * spliced from one) is treated as lost and replaced by a spare stream, read up to the same stripe, if one was
     * given. When a rebuilt stripe does not match its checksum (a fragment relabelled with another index, or altered
     * with its checksums recomputed), every spare is brought in and other choices of {@code m} fragments are tried
     * for that stripe.
     *
     * <p>Streams beyond the {@code m} in use are not read unless one is needed, so a complete set of another
     * dispersal's fragments among them goes unnoticed (with {@code m = 1}, one such fragment is a complete set), where
     * {@code decodeBytes} would refuse to choose: name the dispersal wanted with
     * {@link #decode(List, OutputStream, String)}, which checks the written data against it. Records copied wholesale
     * from another dispersal into every fragment used are caught only by the final checks (with {@code m = 1} one
     * fragment is in use, so one record spliced into it is, where {@code decodeBytes}, holding every fragment,
     * rebuilds the data from another); so if this method throws, discard what it wrote. After the last stripe the
     * trailers are checked: at least one must verify and name the SHA-256 of the written data.
     *
     * @param fragmentSources at least {@code m} streams, any order; each is read only as far as needed, not closed
     * @param data where to write the data; not flushed or closed
     * @return the number of data bytes written
     * @throws NotEnoughFragmentsException if no {@code m} distinct streams verify and agree
     * @throws IllegalArgumentException if the streams hold two dispersals that agree up to a stripe and each have
     *         {@code m} fragments there (name the one wanted)
     * @throws CorruptFragmentException if a stripe rebuilds to data that does not match its checksum with any choice
     *         of fragments (nothing of that stripe is written), or if, after the last stripe, the data written cannot
     *         be confirmed against a verified trailer; the output must then be discarded
     * @throws IOException if writing {@code data} fails
     * @throws NullPointerException if an argument or element is null
     */
    public long decode(List<? extends InputStream> fragmentSources, OutputStream data) throws IOException {
        Objects.requireNonNull(fragmentSources, "fragmentSources");
        Objects.requireNonNull(data, "data");
        return new StreamDecoder(this, fragmentSources, data, null).run();
    }

    /**
     * Rebuilds the data of one named dispersal from fragment streams, as {@link #decode(List, OutputStream)} does,
     * and checks after the last stripe that the SHA-256 of the data written is {@code dispersalId}.
     *
     * @param fragmentSources at least {@code m} streams, any order; each is read only as far as needed, not closed
     * @param data where to write the data; not flushed or closed
     * @param dispersalId the dispersal to rebuild: its {@link DispersalSummary#dispersalId()}, 64 hexadecimal digits
     *        (either case)
     * @return the number of data bytes written
     * @throws NotEnoughFragmentsException if no {@code m} distinct streams verify and agree
     * @throws IllegalArgumentException if {@code dispersalId} is not 64 hexadecimal digits, or as
     *         {@link #decode(List, OutputStream)}
     * @throws CorruptFragmentException as {@link #decode(List, OutputStream)}, and if the data written is not that
     *         dispersal's; the output must then be discarded
     * @throws IOException if writing {@code data} fails
     * @throws NullPointerException if an argument or element is null
     */
    public long decode(List<? extends InputStream> fragmentSources, OutputStream data, String dispersalId)
            throws IOException {
        Objects.requireNonNull(fragmentSources, "fragmentSources");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(dispersalId, "dispersalId");
        return new StreamDecoder(this, fragmentSources, data, dispersalId).run();
    }

    // ---------------------------------------------------------------------------------------------- decode plans

    /**
     * The decoding of one erasure pattern: the selected fragment indexes (the first {@code m} present, ascending),
     * the inverse of their generator rows, and the kernel that computes the data cells not among them.
     */
    static final class DecodePlan {
        final int[] selection;
        final byte[][] inverse;
        final int[] targets;
        final Kernel kernel;

        DecodePlan(int[] selection, byte[][] inverse, int[] targets, Kernel kernel) {
            this.selection = selection;
            this.inverse = inverse;
            this.targets = targets;
            this.kernel = kernel;
        }
    }

    /** The plan for the first {@code m} present entries of {@code cells} (null = lost); cached, bounded. */
    DecodePlan plan(byte[][] cells) {
        int hash = 1;
        int present = 0;
        for (int i = 0; i < cells.length && present < m; i++) {
            if (cells[i] != null) {
                hash = hash * 31 + i;
                present++;
            }
        }
        if (present < m) {
            throw new NotEnoughFragmentsException(present, present, m, List.of());
        }
        int slot = (hash ^ (hash >>> 16)) & (DECODE_CACHE_SLOTS - 1);
        DecodePlan cached = plans.get(slot);
        if (cached != null && matches(cached.selection, cells)) {
            return cached;
        }
        DecodePlan plan = buildPlan(cells);
        plans.set(slot, plan);
        return plan;
    }

    private static boolean matches(int[] selection, byte[][] cells) {
        int t = 0;
        for (int i = 0; i < cells.length && t < selection.length; i++) {
            if (cells[i] != null) {
                if (selection[t++] != i) {
                    return false;
                }
            }
        }
        return t == selection.length;
    }

    private DecodePlan buildPlan(byte[][] cells) {
        int[] selection = new int[m];
        int t = 0;
        for (int i = 0; i < cells.length && t < m; i++) {
            if (cells[i] != null) {
                selection[t++] = i;
            }
        }
        byte[][] rows = new byte[m][];
        for (int r = 0; r < m; r++) {
            rows[r] = generator[selection[r]];
        }
        byte[][] inverse = Gf256.invert(rows);
        int[] targets;
        if (layout.dataInFirstFragments()) {
            boolean[] present = new boolean[m];
            int missing = m;
            for (int index : selection) {
                if (index < m) {
                    present[index] = true;
                    missing--;
                }
            }
            targets = new int[missing];
            for (int j = 0, r = 0; j < m; j++) {
                if (!present[j]) {
                    targets[r++] = j;
                }
            }
        } else {
            targets = new int[m];
            Arrays.setAll(targets, j -> j);
        }
        byte[][] kernelRows = new byte[targets.length][];
        for (int r = 0; r < targets.length; r++) {
            kernelRows[r] = inverse[targets[r]];
        }
        return new DecodePlan(selection, inverse, targets, Kernel.of(kernelRows));
    }

    Kernel encoder() {
        return encoder;
    }

    Workspace.Pool workspaces() {
        return workspaces;
    }

    /**
     * Two codecs are equal when they have the same layout, {@code m}, {@code k} and stripe size, and so produce the
     * same fragments.
     *
     * @param o the other object
     * @return whether {@code o} is an equal codec
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof IdaCodec c && c.layout == layout && c.m == m && c.k == k && c.stripeBytes == stripeBytes;
    }

    @Override
    public int hashCode() {
        return ((layout.hashCode() * 31 + m) * 31 + k) * 31 + stripeBytes;
    }

    @Override
    public String toString() {
        return "IdaCodec." + describe(layout, m, k)
                + (stripeBytes == DEFAULT_STRIPE_SIZE_BYTES ? "" : ".withStripeSizeBytes(" + stripeBytes + ")");
    }
}
