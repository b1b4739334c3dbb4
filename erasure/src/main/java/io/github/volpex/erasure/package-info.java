/**
 * Erasure coding of checkpoints into fragments for volatile repositories: Rabin's information dispersal (IDA) over
 * GF(2^8), after Rabin (J. ACM 36(2), 1989), de Camargo et al. §4.2 and Ren et al. §6.2.
 *
 * <p>Start from {@link io.github.volpex.erasure.IdaCodec}: {@code m} data fragments plus {@code k} redundant ones,
 * {@code n = m + k}, of which any {@code m} rebuild the data. {@link io.github.volpex.erasure.IdaCodec#systematic}
 * (the default, Malluhi and Johnston's "optimized IDA") keeps the data in the first {@code m} fragments and adds
 * Cauchy parity byte-identical to ISA-L and Hadoop; {@link io.github.volpex.erasure.IdaCodec#rabin} codes every
 * fragment; {@link io.github.volpex.erasure.IdaCodec#xor} keeps the data and adds one parity fragment, their XOR
 * (byte-identical to Hadoop's {@code XORRawEncoder}), and codes with no field multiplication at all. Failures a
 * caller handles are {@link io.github.volpex.erasure.NotEnoughFragmentsException} and
 * {@link io.github.volpex.erasure.CorruptFragmentException}.
 *
 * <h2>The arithmetic</h2>
 * GF(2^8) with the polynomial {@code x^8 + x^4 + x^3 + x^2 + 1} (0x11D). Fragment {@code i} is row {@code i} of an
 * {@code n × m} generator times the column of the stripe's {@code m} data cells, position by position. Systematic:
 * rows {@code 0 … m−1} are the identity and row {@code i ≥ m} is {@code a[i][j] = 1 / (i ⊕ j)} (ISA-L's
 * {@code gf_gen_cauchy1_matrix}; never a raw Vandermonde under the identity, which is not MDS in general). Rabin:
 * row {@code i} is {@code (1, α, …, α^{m−1})} with {@code α = i + 1}. XOR: {@code n = m + 1}, rows
 * {@code 0 … m−1} are the identity and row {@code m} is all ones, so the parity is the XOR of the data cells; every
 * {@code m × m} submatrix of {@code [I; 1 … 1]} is invertible and its inverse is again 0s and 1s (a lost fragment is
 * the XOR of the other {@code m}). Decoding inverts the {@code m × m} rows of the fragments at hand.
 *
 * <p><b>Where this departs from Rabin's paper.</b> Rabin codes consecutive groups of {@code m} bytes ("segments").
 * Here a stripe is cut into {@code m} contiguous cells and a segment is the {@code m} bytes at one position of the
 * cells. The code is the same up to a fixed permutation of the input bytes; it lets every layout share kernels that
 * work on whole cells, and makes the systematic and XOR data fragments contiguous pieces of the data. The XOR layout
 * is not in Rabin's paper: it is the single parity of RAID levels 4 and 5, the {@code k = 1} code that needs no
 * field arithmetic, offered beside the ISA-L-compatible {@code systematic(m, 1)}.
 *
 * <h2>Striping</h2>
 * With stripe size {@code S}, stripe {@code s} covers data bytes {@code [s·mS, (s+1)·mS)}; a full stripe's cells are
 * {@code S} bytes. The last stripe holds the remaining {@code r < mS} bytes (possibly none) in cells of
 * {@code c = ⌈r/m⌉} bytes, cell {@code j} taking data bytes {@code [jc, (j+1)c)} of the stripe, zero-padded. Every
 * fragment's payload is the concatenation of its cells: {@code ⌈length/m⌉} bytes.
 *
 * <h2>Fragment wire format, version 1</h2>
 * Integers are big-endian; CRC32C is {@link java.util.zip.CRC32C}.
 * <table class="striped">
 * <caption>Header, 20 bytes</caption>
 * <thead><tr><th>offset</th><th>bytes</th><th>field</th></tr></thead>
 * <tbody>
 * <tr><td>0</td><td>4</td><td>magic {@code 0x56505846}, ASCII "VPXF"</td></tr>
 * <tr><td>4</td><td>1</td><td>format version, 1</td></tr>
 * <tr><td>5</td><td>1</td><td>layout: 1 systematic, 2 Rabin, 3 XOR</td></tr>
 * <tr><td>6</td><td>1</td><td>{@code m}, in [1, 255]</td></tr>
 * <tr><td>7</td><td>1</td><td>{@code n}, in [m, 255]; exactly {@code m + 1} for XOR</td></tr>
 * <tr><td>8</td><td>1</td><td>fragment index, in [0, n)</td></tr>
 * <tr><td>9</td><td>3</td><td>reserved, zero</td></tr>
 * <tr><td>12</td><td>4</td><td>stripe size {@code S} in bytes, in [1, 4 MiB]</td></tr>
 * <tr><td>16</td><td>4</td><td>CRC32C of bytes 0–15</td></tr>
 * </tbody>
 * </table>
 * <table class="striped">
 * <caption>One record per stripe, {@code s = 0, 1, …}</caption>
 * <thead><tr><th>bytes</th><th>field</th></tr></thead>
 * <tbody>
 * <tr><td>4</td><td>{@code d}, the data bytes the stripe covers: {@code mS} for every record but the last, which has
 * {@code d < mS} (0 when the length is a multiple of {@code mS})</td></tr>
 * <tr><td>{@code ⌈d/m⌉}</td><td>the fragment's cell of the stripe</td></tr>
 * <tr><td>4</td><td>CRC32C of the stripe's {@code d} original data bytes, the same in every fragment: a decoder
 * checks the stripe it rebuilt against it before writing a byte, so fragments of different data mixed within a
 * stripe are caught at once</td></tr>
 * <tr><td>4</td><td>CRC32C of: fragment index (4 bytes), {@code s} modulo 2^32 (4 bytes), {@code d} (4 bytes), the
 * cell, the data CRC32C — so a record moved to another fragment or position fails</td></tr>
 * </tbody>
 * </table>
 * <table class="striped">
 * <caption>Trailer, 76 bytes</caption>
 * <thead><tr><th>offset</th><th>bytes</th><th>field</th></tr></thead>
 * <tbody>
 * <tr><td>0</td><td>8</td><td>original data length in bytes (the sum of the records' {@code d})</td></tr>
 * <tr><td>8</td><td>32</td><td>dispersal id: SHA-256 of the original data, equal in every fragment of one
 * encoding</td></tr>
 * <tr><td>40</td><td>32</td><td>content id: SHA-256 of the payload (the concatenated cells), the name of the
 * fragment (de Camargo et al.: fragments are named by their secure hash)</td></tr>
 * <tr><td>72</td><td>4</td><td>CRC32C of header bytes 0–15 followed by trailer bytes 0–71</td></tr>
 * </tbody>
 * </table>
 * The length and the ids sit in a trailer so that a stream of unknown length can be encoded in one pass; each
 * record says how much data it covers, so a streaming decoder knows the last stripe when it reads it. A fragment is
 * {@code 20 + 12 × records + ⌈length/m⌉ + 76} bytes.
 *
 * <h2>Integrity</h2>
 * {@link io.github.volpex.erasure.Fragment#parse} checks every field above. The decoders treat as lost a fragment that
 * fails any check, that was encoded with another layout, {@code m} or {@code n}, or that belongs to another dispersal
 * than the one with {@code m} distinct fragments (a repository that kept an older checkpoint's fragment), and succeed
 * while {@code m} distinct fragments of one dispersal remain. Fragments are of one dispersal when their dispersal
 * ids, data lengths, stripe sizes and every stripe's data checksum agree; a fragment that differs in any of them is
 * set aside with a reason naming the first difference (a record spliced from other data keeps the dispersal id but
 * not the stripe's data checksum). When two different dispersals each have {@code m} fragments the decoders refuse to
 * guess ({@link java.lang.IllegalArgumentException}) and the caller names the one wanted; when none has {@code m},
 * {@link io.github.volpex.erasure.NotEnoughFragmentsException} gives each one's count. The rebuilt data is checked
 * against the dispersal id; when it does not match (a fragment relabelled with another index, or altered with its
 * checksums recomputed), other choices of {@code m} fragments are tried stripe by stripe, each stripe checked against
 * its data checksum, and the fragments that do not fit the rebuilt data are reported.
 * {@link io.github.volpex.erasure.IdaCodec#decodeBytesWithReport} returns the data with what was used and what was
 * set aside.
 *
 * <h2>Speed</h2>
 * The kernel evaluates each output row by Horner's rule over the coefficient bits with SWAR doubling of eight bytes
 * per {@code long}, on L1-sized blocks that the JIT vectorizes; see {@code benchmarks/README.md} for measurements
 * against Backblaze's JavaReedSolomon and Hadoop's pure-Java Reed–Solomon coder. A row whose coefficients are all 0
 * or 1 needs no doubling. A matrix whose coefficients are all 0 or 1 — the XOR layout's parity and every one of its
 * decoding and repair matrices — goes to a separate kernel that XORs the cells in place, eight bytes at a time through
 * a {@code long} view, with no product table and no copy into blocks. With one parity fragment ({@code k = 1}) the
 * systematic row is {@code 1/(m ⊕ j)}, not all ones, because its parity must stay byte-identical to ISA-L and
 * Hadoop's Reed–Solomon; it costs one output row of the multiplying kernel. {@code xor(m)} is the layout for one
 * parity fragment when that compatibility is not needed.
 *
 * <p><b>Vector API, opt-in.</b> Started with {@code --add-modules jdk.incubator.vector} (JDK 17 or later), the JVM
 * gets a second multiplying kernel in place of the first: ISA-L's split-table method (Plank, Greenan and Miller,
 * FAST 2013), two byte shuffles and an exclusive or per product of a whole vector, over blocks of 8 KiB of every cell
 * in tiles of three outputs by three inputs whose tables stay in registers for the whole block, the data cells of a
 * systematic encoding stored from the registers that hold them for the products. It is chosen only where vectors are
 * at least 32 bytes wide, and computes the same bytes; without the flag nothing of the incubator module is loaded,
 * and the module does not require it. The build runs the whole test suite of this module both ways.
 *
 * @since 0.1
 */
package io.github.volpex.erasure;
