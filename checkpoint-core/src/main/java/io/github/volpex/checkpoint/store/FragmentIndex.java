package io.github.volpex.checkpoint.store;

import io.github.volpex.erasure.IdaCodec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * The file fragment index (de Camargo, Castor and Kon §4.2, "FFI") of one checkpoint: which job and sequence number it
 * belongs to, how it was encoded, where each fragment is and what it hashes to, and how long its lease runs.
 *
 * <p>A {@link CheckpointStore} writes a copy of the index next to every fragment and returns it from
 * {@link CheckpointStore#commit}; keep it to recover the checkpoint even when no repository can be listed.
 *
 * <p><b>Identity and order.</b> A checkpoint is identified by its job id, the epoch of the writer that committed it
 * (from the store's {@link EpochSource}), its sequence number within the job and a random commit id that tells apart
 * two commits given the same epoch and sequence number. Checkpoints of a job are ordered by epoch, then sequence
 * number, then commit id (unsigned): a writer that starts later takes a higher epoch, so its checkpoints order after
 * every checkpoint of an earlier writer, whatever sequence numbers the earlier one reached. The revision counts the
 * rewrites of the index for the same checkpoint (repairs, lease renewals); readers keep the highest.
 *
 * <h2>Binary format, versions 2 and 3</h2>
 * Big-endian; strings are UTF-8 preceded by their length in bytes as one unsigned byte. A full checkpoint's index is
 * written in version 2, a {@linkplain #isDifferential() differential} checkpoint's in version 3, which has one more
 * byte, the payload layout. A reader refuses any other version with an {@link UnsupportedFormatException}.
 * <pre>
 * offset  size  field
 *      0     4  magic: the ASCII bytes "VXFI" (0x56 0x58 0x46 0x49)
 *      4     2  format version: 2 or 3
 *      6     2  flags: 0 (readers reject other values)
 * version 3 only:
 *      8     1  payload layout: 1 = the fragments hold a segment of blocks followed by the checkpoint's block
 *               manifest (a differential checkpoint); readers reject other values
 *  8 or 9  1+J  job id (J ≤ 64 bytes of [A-Za-z0-9_-])
 *              8  epoch (≥ 0)
 *              8  sequence number (≥ 0)
 *              8  commit id
 *              4  revision (≥ 0)
 *              1  encoding: 0 = {@link Encoding#REPLICAS}, 1 = {@link Encoding#IDA_SYSTEMATIC},
 *                 2 = {@link Encoding#IDA_RABIN}, 3 = {@link Encoding#IDA_XOR}
 *              1  m (1..255; 1 for replicas)
 *              1  k (0..255 − m; 1 for IDA_XOR)
 *              4  the codec's stripe size in bytes (1..2^22 for IDA, 0 for replicas)
 *              4  segment size in bytes (1..2^30)
 *              8  checkpoint length in bytes (≥ 0)
 *             32  SHA-256 of the checkpoint
 *              8  created at, milliseconds since 1970-01-01T00:00Z
 *              8  lease expiry, milliseconds since 1970-01-01T00:00Z
 *              1  fragment count: n = m + k
 *  n times:    1  fragment index (0..n−1, ascending)
 *            1+R  repository id (1 ≤ R ≤ 255)
 *              8  fragment length in bytes (≥ 0)
 *             32  SHA-256 of the fragment
 *  last:       4  CRC-32C (Castagnoli) of every preceding byte
 * </pre>
 * Times have millisecond precision: instants given to an index are truncated to milliseconds. Version 1 (without the
 * epoch) is not read.
 *
 * <h2>Keys</h2>
 * A store keeps every object of a checkpoint under {@code <job>.<epoch>.<sequence>.<commit id>.<suffix>}, the three
 * numbers as 16 lower-case hexadecimal digits each: suffix {@code f<i>} for fragment {@code i}
 * ({@link #fragmentKey}), {@code idx} for a copy of this index ({@link #indexKey}) and {@code ok} for a commit marker
 * ({@link #markerKey}). A listing therefore tells, without reading anything, which checkpoints a repository holds,
 * in which order they come and which of them reached their commit point.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class FragmentIndex {

    /** The most fragments a checkpoint has. */
    public static final int MAX_FRAGMENTS = 255;
    /** The format version of a full checkpoint's index. */
    public static final int FORMAT_VERSION = 2;
    /**
     * The format version of a differential checkpoint's index: version 2 and the payload layout.
     *
     * @since 0.1
     */
    public static final int DIFFERENTIAL_FORMAT_VERSION = 3;
    /** The payload layout byte of a differential checkpoint. */
    private static final int LAYOUT_DIFFERENTIAL = 1;

    /** The largest segment a store writes, {@code 2^30} bytes: an index claiming more is not trusted. */
    static final int MAX_SEGMENT_BYTES = 1 << 30;

    private static final int MAGIC = 0x56584649;

    private final String jobId;
    private final long epoch;
    private final long sequence;
    private final long commitId;
    private final int revision;
    private final Encoding encoding;
    private final int m;
    private final int k;
    private final int stripeBytes;
    private final int segmentBytes;
    private final long checkpointBytes;
    private final Sha256 checkpointSha256;
    private final Instant createdAt;
    private final Instant leaseExpiry;
    private final List<FragmentLocation> fragments;
    private final boolean differential;

    FragmentIndex(String jobId, long epoch, long sequence, long commitId, int revision, Encoding encoding, int m,
                  int k, int stripeBytes, int segmentBytes, long checkpointBytes, Sha256 checkpointSha256,
                  Instant createdAt, Instant leaseExpiry, List<FragmentLocation> fragments) {
        this(jobId, epoch, sequence, commitId, revision, encoding, m, k, stripeBytes, segmentBytes, checkpointBytes,
                checkpointSha256, createdAt, leaseExpiry, fragments, false);
    }

    FragmentIndex(String jobId, long epoch, long sequence, long commitId, int revision, Encoding encoding, int m,
                  int k, int stripeBytes, int segmentBytes, long checkpointBytes, Sha256 checkpointSha256,
                  Instant createdAt, Instant leaseExpiry, List<FragmentLocation> fragments, boolean differential) {
        this.jobId = Names.requireJobId(jobId);
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be >= 0: " + epoch);
        }
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must be >= 0: " + sequence);
        }
        if (revision < 0) {
            throw new IllegalArgumentException("revision must be >= 0: " + revision);
        }
        this.encoding = Objects.requireNonNull(encoding, "encoding");
        if (m < 1 || m > MAX_FRAGMENTS || (encoding == Encoding.REPLICAS && m != 1)) {
            throw new IllegalArgumentException("m must be in [1, " + (encoding == Encoding.REPLICAS ? 1 : MAX_FRAGMENTS)
                    + "] for " + encoding + ": " + m);
        }
        if (k < 0 || k > MAX_FRAGMENTS - m) {
            throw new IllegalArgumentException("k must be in [0, " + (MAX_FRAGMENTS - m) + "] for m = " + m + ": " + k);
        }
        if (encoding == Encoding.IDA_XOR && k != 1) {
            throw new IllegalArgumentException("k must be 1 for IDA_XOR: " + k);
        }
        if (encoding == Encoding.REPLICAS ? stripeBytes != 0
                : stripeBytes < 1 || stripeBytes > IdaCodec.MAX_STRIPE_SIZE_BYTES) {
            throw new IllegalArgumentException("stripeBytes must be " + (encoding == Encoding.REPLICAS ? "0"
                    : "in [1, " + IdaCodec.MAX_STRIPE_SIZE_BYTES + "]") + " for " + encoding + ": " + stripeBytes);
        }
        if (segmentBytes < 1 || segmentBytes > MAX_SEGMENT_BYTES) {
            throw new IllegalArgumentException("segmentBytes must be in [1, " + MAX_SEGMENT_BYTES + "]: "
                    + segmentBytes);
        }
        if (checkpointBytes < 0) {
            throw new IllegalArgumentException("checkpointBytes must be >= 0: " + checkpointBytes);
        }
        this.checkpointSha256 = Objects.requireNonNull(checkpointSha256, "checkpointSha256");
        this.createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
        this.leaseExpiry = Objects.requireNonNull(leaseExpiry, "leaseExpiry").truncatedTo(ChronoUnit.MILLIS);
        List<FragmentLocation> sorted = new ArrayList<>(fragments);
        sorted.sort(Comparator.comparingInt(FragmentLocation::fragmentIndex));
        if (sorted.size() != m + k) {
            throw new IllegalArgumentException("fragments must list n = m + k = " + (m + k) + " fragments: "
                    + sorted.size());
        }
        for (int i = 0; i < sorted.size(); i++) {
            if (sorted.get(i).fragmentIndex() != i) {
                throw new IllegalArgumentException("fragments must have the indices 0 to " + (m + k - 1)
                        + " once each: index " + i + " is missing");
            }
        }
        this.epoch = epoch;
        this.sequence = sequence;
        this.commitId = commitId;
        this.revision = revision;
        this.m = m;
        this.k = k;
        this.stripeBytes = stripeBytes;
        this.segmentBytes = segmentBytes;
        this.checkpointBytes = checkpointBytes;
        this.fragments = List.copyOf(sorted);
        this.differential = differential;
    }

    /**
     * Parses an index from its binary format.
     *
     * @param bytes the serialised index
     * @return the index
     * @throws NullPointerException   if {@code bytes} is null
     * @throws UnsupportedFormatException if the bytes carry a format version other than 2 and 3
     * @throws CorruptIndexException if the bytes are not a valid index
     */
    public static FragmentIndex parse(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length < 12) {
            throw new CorruptIndexException("index is truncated: " + bytes.length + " bytes", null);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int magic = in.getInt();
        if (magic != MAGIC) {
            throw new CorruptIndexException(String.format(Locale.ROOT, "index magic must be 0x%08X: 0x%08X",
                    MAGIC, magic), null);
        }
        int version = Short.toUnsignedInt(in.getShort());
        if (version != FORMAT_VERSION && version != DIFFERENTIAL_FORMAT_VERSION) {
            throw new UnsupportedFormatException("index", version, List.of(FORMAT_VERSION,
                    DIFFERENTIAL_FORMAT_VERSION));
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        int stored = ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt();
        if ((int) crc.getValue() != stored) {
            throw new CorruptIndexException(String.format(Locale.ROOT, "index checksum must be 0x%08X: 0x%08X",
                    (int) crc.getValue(), stored), null);
        }
        try {
            int flags = Short.toUnsignedInt(in.getShort());
            if (flags != 0) {
                throw new CorruptIndexException("index flags must be 0: " + flags, null);
            }
            boolean differential = false;
            if (version == DIFFERENTIAL_FORMAT_VERSION) {
                int layout = Byte.toUnsignedInt(in.get());
                if (layout != LAYOUT_DIFFERENTIAL) {
                    throw new CorruptIndexException("index payload layout must be " + LAYOUT_DIFFERENTIAL + ": "
                            + layout, null);
                }
                differential = true;
            }
            String jobId = string(in);
            long epoch = in.getLong();
            long sequence = in.getLong();
            long commitId = in.getLong();
            int revision = in.getInt();
            int code = Byte.toUnsignedInt(in.get());
            Encoding encoding = Encoding.ofCode(code);
            if (encoding == null) {
                throw new CorruptIndexException("index encoding must be 0, 1, 2 or 3: " + code, null);
            }
            int m = Byte.toUnsignedInt(in.get());
            int k = Byte.toUnsignedInt(in.get());
            int stripeBytes = in.getInt();
            int segmentBytes = in.getInt();
            long length = in.getLong();
            Sha256 checkpointSha = digest(in);
            Instant created = Instant.ofEpochMilli(in.getLong());
            Instant lease = Instant.ofEpochMilli(in.getLong());
            int count = Byte.toUnsignedInt(in.get());
            List<FragmentLocation> fragments = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int index = Byte.toUnsignedInt(in.get());
                if (index != i) {
                    throw new CorruptIndexException("index fragment " + i + " has index " + index, null);
                }
                String repository = string(in);
                long fragmentLength = in.getLong();
                fragments.add(new FragmentLocation(index, repository, fragmentLength, digest(in)));
            }
            if (in.remaining() != 4) {
                throw new CorruptIndexException("index has " + (in.remaining() - 4) + " bytes after its last field",
                        null);
            }
            return new FragmentIndex(jobId, epoch, sequence, commitId, revision, encoding, m, k, stripeBytes,
                    segmentBytes, length, checkpointSha, created, lease, fragments, differential);
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new CorruptIndexException("index is truncated: " + bytes.length + " bytes", e);
        } catch (IllegalArgumentException | CharacterCodingException e) {
            throw new CorruptIndexException("index holds an invalid value: " + e.getMessage(), e);
        }
    }

    private static String string(ByteBuffer in) throws CharacterCodingException {
        int length = Byte.toUnsignedInt(in.get());
        ByteBuffer slice = in.slice(in.position(), length);
        in.position(in.position() + length);
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(slice).toString();
    }

    private static Sha256 digest(ByteBuffer in) {
        byte[] digest = new byte[Sha256.LENGTH_BYTES];
        in.get(digest);
        return Sha256.wrap(digest);
    }

    /**
     * Returns this index in its binary format.
     *
     * @return a new array holding the serialised index
     */
    public byte[] toBytes() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(128 + fragments.size() * 64);
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeInt(MAGIC);
            out.writeShort(differential ? DIFFERENTIAL_FORMAT_VERSION : FORMAT_VERSION);
            out.writeShort(0);
            if (differential) {
                out.writeByte(LAYOUT_DIFFERENTIAL);
            }
            writeString(out, jobId);
            out.writeLong(epoch);
            out.writeLong(sequence);
            out.writeLong(commitId);
            out.writeInt(revision);
            out.writeByte(encoding.code());
            out.writeByte(m);
            out.writeByte(k);
            out.writeInt(stripeBytes);
            out.writeInt(segmentBytes);
            out.writeLong(checkpointBytes);
            out.write(checkpointSha256.bytes());
            out.writeLong(createdAt.toEpochMilli());
            out.writeLong(leaseExpiry.toEpochMilli());
            out.writeByte(fragments.size());
            for (FragmentLocation f : fragments) {
                out.writeByte(f.fragmentIndex());
                writeString(out, f.repositoryId());
                out.writeLong(f.lengthBytes());
                out.write(f.sha256().bytes());
            }
            CRC32C crc = new CRC32C();
            crc.update(buffer.toByteArray());
            out.writeInt((int) crc.getValue());
        } catch (IOException e) {
            throw new UncheckedIOException("a byte array cannot fail to write", e);
        }
        return buffer.toByteArray();
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeByte(utf8.length);
        out.write(utf8);
    }

    /**
     * Returns the job this checkpoint belongs to.
     *
     * @return the job id
     */
    public String jobId() {
        return jobId;
    }

    /**
     * Returns the epoch of the writer that committed the checkpoint: checkpoints order by epoch first.
     *
     * @return the epoch, {@code ≥ 0}
     */
    public long epoch() {
        return epoch;
    }

    /**
     * Returns the checkpoint's sequence number within its job: a writer numbers its checkpoints upwards, continuing
     * from the highest number it saw; checkpoints order by {@link #epoch()} first, then by this number.
     *
     * @return the sequence number, {@code ≥ 0}
     */
    public long sequence() {
        return sequence;
    }

    /**
     * Returns the random identifier of the commit that wrote this checkpoint.
     *
     * @return the commit id
     */
    public long commitId() {
        return commitId;
    }

    /**
     * Returns how many times this index was rewritten (repairs, lease renewals) since the commit.
     *
     * @return the revision, {@code ≥ 0}
     */
    public int revision() {
        return revision;
    }

    /**
     * Returns how the checkpoint was cut into fragments.
     *
     * @return the encoding
     */
    public Encoding encoding() {
        return encoding;
    }

    /**
     * Returns how many fragments rebuild the checkpoint.
     *
     * @return {@code m}
     */
    public int m() {
        return m;
    }

    /**
     * Returns how many fragments beyond {@code m} were stored.
     *
     * @return {@code k}
     */
    public int k() {
        return k;
    }

    /**
     * Returns how many fragments were stored.
     *
     * @return {@code n = m + k}
     */
    public int n() {
        return m + k;
    }

    /**
     * Returns the stripe size of the information dispersal that coded the fragments, which decoding must use again.
     *
     * @return the stripe size in bytes, or {@code 0} for {@link Encoding#REPLICAS}
     */
    public int stripeBytes() {
        return stripeBytes;
    }

    /**
     * Returns the size of the segments the checkpoint was encoded in, one after another.
     *
     * @return the segment size, in bytes
     */
    public int segmentBytes() {
        return segmentBytes;
    }

    /**
     * Returns the size of what the fragments encode: the checkpoint's size, or for a {@linkplain #isDifferential()
     * differential} checkpoint the size of its segment (the blocks it stored and its block manifest).
     *
     * @return the size, in bytes
     */
    public long checkpointBytes() {
        return checkpointBytes;
    }

    /**
     * Returns the digest of what the fragments encode: the whole checkpoint, or a {@linkplain #isDifferential()
     * differential} checkpoint's segment (its block manifest holds the digest of the state).
     *
     * @return the SHA-256
     */
    public Sha256 checkpointSha256() {
        return checkpointSha256;
    }

    /**
     * Returns when the checkpoint was committed (by the committing store's clock).
     *
     * @return the commit time, to the millisecond
     */
    public Instant createdAt() {
        return createdAt;
    }

    /**
     * Returns when the checkpoint's lease ends: after it, the store no longer repairs the checkpoint and may delete
     * it (de Camargo §4.3).
     *
     * @return the lease expiry, to the millisecond
     */
    public Instant leaseExpiry() {
        return leaseExpiry;
    }

    /**
     * Returns whether the lease has ended at {@code now}.
     *
     * @param now the current time
     * @return {@code true} if {@code now} is after the lease expiry
     * @throws NullPointerException if {@code now} is null
     */
    public boolean isExpired(Instant now) {
        return now.isAfter(leaseExpiry);
    }

    /**
     * Returns whether this is a differential checkpoint: its fragments encode a segment of the blocks its commit
     * stored and a manifest listing every block of the state, some of them in segments of older checkpoints that the
     * store keeps as long as a retained checkpoint lists them (see {@link CheckpointStore.Builder#differential}).
     * Rebuilding it reads those segments too.
     *
     * @return {@code true} for a differential checkpoint, written in format version 3
     * @since 0.1
     */
    public boolean isDifferential() {
        return differential;
    }

    /**
     * Returns where each fragment is, by ascending fragment index.
     *
     * @return {@code n} locations, an unmodifiable list
     */
    public List<FragmentLocation> fragments() {
        return fragments;
    }

    /**
     * Returns the key under which fragment {@code fragmentIndex} is stored in its repository.
     *
     * @param fragmentIndex the fragment's index, in {@code [0, n)}
     * @return the key
     * @throws IndexOutOfBoundsException if {@code fragmentIndex} is out of range
     */
    public String fragmentKey(int fragmentIndex) {
        Objects.checkIndex(fragmentIndex, n());
        return StoreKeys.fragmentKey(jobId, checkpointId(), fragmentIndex);
    }

    /**
     * Returns the key under which copies of this index are stored.
     *
     * @return the key
     */
    public String indexKey() {
        return StoreKeys.indexKey(jobId, checkpointId());
    }

    /**
     * Returns the key of this checkpoint's commit markers: empty objects whose presence on a repository proves that the
     * checkpoint reached its commit point (see {@link CheckpointStore}).
     *
     * @return the key
     */
    public String markerKey() {
        return StoreKeys.markerKey(jobId, checkpointId());
    }

    /** The checkpoint's identity within its job, which orders it among the job's checkpoints. */
    CheckpointId checkpointId() {
        return new CheckpointId(epoch, sequence, commitId);
    }

    /** This index with other fragment locations, same revision (before it is first written). */
    FragmentIndex relocated(List<FragmentLocation> newFragments) {
        return new FragmentIndex(jobId, epoch, sequence, commitId, revision, encoding, m, k, stripeBytes, segmentBytes,
                checkpointBytes, checkpointSha256, createdAt, leaseExpiry, newFragments, differential);
    }

    /** This index with other fragment locations and a revision one higher. */
    FragmentIndex revised(List<FragmentLocation> newFragments, Instant newLeaseExpiry) {
        return new FragmentIndex(jobId, epoch, sequence, commitId, revision + 1, encoding, m, k, stripeBytes,
                segmentBytes, checkpointBytes, checkpointSha256, createdAt, newLeaseExpiry, newFragments, differential);
    }

    /** Whether {@code other} describes the same checkpoint (job, epoch, sequence and commit id). */
    boolean sameCheckpoint(FragmentIndex other) {
        return jobId.equals(other.jobId) && epoch == other.epoch && sequence == other.sequence
                && commitId == other.commitId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FragmentIndex other
                && jobId.equals(other.jobId) && epoch == other.epoch && sequence == other.sequence
                && commitId == other.commitId
                && revision == other.revision && encoding == other.encoding && m == other.m && k == other.k
                && stripeBytes == other.stripeBytes && segmentBytes == other.segmentBytes
                && checkpointBytes == other.checkpointBytes
                && checkpointSha256.equals(other.checkpointSha256) && createdAt.equals(other.createdAt)
                && leaseExpiry.equals(other.leaseExpiry) && fragments.equals(other.fragments)
                && differential == other.differential;
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobId, epoch, sequence, commitId, revision, encoding, m, k, stripeBytes, segmentBytes,
                checkpointBytes, checkpointSha256, createdAt, leaseExpiry, fragments, differential);
    }

    @Override
    public String toString() {
        return "FragmentIndex[" + jobId + " epoch " + epoch + " #" + sequence + " commit " + Long.toHexString(commitId)
                + " rev " + revision + (differential ? ", differential" : "") + ", " + encoding + " m=" + m
                + " k=" + k + ", " + checkpointBytes + " bytes, lease to " + leaseExpiry + ", on "
                + fragments.stream().map(FragmentLocation::repositoryId).toList() + "]";
    }
}
