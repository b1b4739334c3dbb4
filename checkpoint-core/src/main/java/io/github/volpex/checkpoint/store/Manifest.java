package io.github.volpex.checkpoint.store;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The block manifest of a differential checkpoint: the state's length and digest, the other segments it needs and
 * every block of the state in order. It ends the checkpoint's payload, after the blocks the checkpoint stored itself.
 *
 * <h2>Payload</h2>
 * <pre>
 *   B bytes   the blocks this checkpoint stored, one after another ("own blocks", segment 0)
 *   M bytes   the manifest, below
 *   4 bytes   M, big-endian
 * </pre>
 *
 * <h2>Manifest, version 1</h2>
 * Big-endian.
 * <pre>
 * offset  size  field
 *      0     4  magic: the ASCII bytes "VXDM" (0x56 0x58 0x44 0x4D)
 *      4     2  manifest version: 1 (readers refuse others with an UnsupportedFormatException)
 *      6     2  flags: 0
 *      8     1  chunking: 0 = fixed-size, 1 = content-defined (informative: readers do not cut)
 *      9     4  block size, or average chunk size, in bytes
 *     13     8  state length in bytes (≥ 0)
 *     21    32  SHA-256 of the state
 *     53     8  B: bytes of own blocks
 *     61     4  S: number of other segments
 *  S times:  8  epoch, 8 sequence number, 8 commit id of the checkpoint whose payload is the segment
 *            8  the segment's payload length; 32 its SHA-256 (the index's checkpoint length and digest)
 *            8  the bytes of blocks the segment holds (its B)
 *            4  N: number of blocks
 *  N times:  4  segment: 0 = own blocks, i = the i-th segment above (1-based)
 *            8  offset of the block in that segment's payload
 *            4  length of the block (≥ 1)
 *           32  SHA-256 of the block
 *  last:     4  CRC-32C (Castagnoli) of every preceding byte of the manifest
 * </pre>
 * The blocks' lengths add up to the state's length; each block lies within its segment's block bytes.
 */
final class Manifest {

    static final String FORMAT = "block manifest";
    static final int VERSION = 1;
    private static final int MAGIC = 0x5658444D;
    private static final int HEADER_BYTES = 65;
    private static final int SEGMENT_BYTES = 72;
    private static final int BLOCK_BYTES = 48;
    private static final int SHA = Sha256.LENGTH_BYTES;

    /** A segment a manifest refers to: the payload of an older checkpoint of the same job. */
    record Segment(CheckpointId id, long payloadBytes, Sha256 payloadSha256, long blockBytes) {
    }

    final int chunkingCode;
    final int chunkBytes;
    final long stateBytes;
    final Sha256 stateSha256;
    final long ownBlockBytes;
    /** The other segments; segment {@code i} (1-based) of a block is {@code segments.get(i - 1)}. */
    final List<Segment> segments;
    final int blocks;
    final int[] segmentOf;
    final long[] offset;
    final int[] length;
    /** The blocks' SHA-256s, 32 bytes each, in block order. */
    final byte[] hashes;

    Manifest(int chunkingCode, int chunkBytes, long stateBytes, Sha256 stateSha256, long ownBlockBytes,
             List<Segment> segments, int blocks, int[] segmentOf, long[] offset, int[] length, byte[] hashes) {
        this.chunkingCode = chunkingCode;
        this.chunkBytes = chunkBytes;
        this.stateBytes = stateBytes;
        this.stateSha256 = stateSha256;
        this.ownBlockBytes = ownBlockBytes;
        this.segments = List.copyOf(segments);
        this.blocks = blocks;
        this.segmentOf = segmentOf;
        this.offset = offset;
        this.length = length;
        this.hashes = hashes;
        long total = 0;
        for (int i = 0; i < blocks; i++) {
            int segment = segmentOf[i];
            if (segment < 0 || segment > this.segments.size()) {
                throw new IllegalArgumentException("block " + i + " names segment " + segment + " of "
                        + this.segments.size());
            }
            long room = segment == 0 ? ownBlockBytes : this.segments.get(segment - 1).blockBytes();
            if (length[i] < 1 || offset[i] < 0 || offset[i] > room - length[i]) {
                throw new IllegalArgumentException("block " + i + " at " + offset[i] + " of " + length[i]
                        + " bytes lies outside the " + room + " block bytes of segment " + segment);
            }
            total += length[i];
        }
        if (total != stateBytes) {
            throw new IllegalArgumentException("the blocks add up to " + total + " bytes, the state has "
                    + stateBytes);
        }
    }

    /** The SHA-256 of block {@code i}, as a map key. */
    BlockHash hash(int i) {
        return BlockHash.of(hashes, i * SHA);
    }

    /** The length of the bytes of a manifest of {@code segments} other segments and {@code blocks} blocks. */
    static long encodedBytes(int segments, int blocks) {
        return HEADER_BYTES + (long) segments * SEGMENT_BYTES + 4 + (long) blocks * BLOCK_BYTES + 4;
    }

    /** The manifest's bytes (without the payload's trailing length). */
    byte[] toBytes() {
        long size = encodedBytes(segments.size(), blocks);
        if (size > CheckpointStore.MAX_ARRAY_BYTES) {
            throw new IllegalStateException("a manifest of " + blocks + " blocks does not fit in an array");
        }
        ByteBuffer out = ByteBuffer.allocate((int) size);
        out.putInt(MAGIC).putShort((short) VERSION).putShort((short) 0);
        out.put((byte) chunkingCode).putInt(chunkBytes).putLong(stateBytes).put(stateSha256.bytes());
        out.putLong(ownBlockBytes).putInt(segments.size());
        for (Segment segment : segments) {
            out.putLong(segment.id().epoch()).putLong(segment.id().sequence()).putLong(segment.id().commitId());
            out.putLong(segment.payloadBytes()).put(segment.payloadSha256().bytes()).putLong(segment.blockBytes());
        }
        out.putInt(blocks);
        for (int i = 0; i < blocks; i++) {
            out.putInt(segmentOf[i]).putLong(offset[i]).putInt(length[i]).put(hashes, i * SHA, SHA);
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        return out.array();
    }

    /** Reads the manifest that ends a differential checkpoint's payload. */
    static Manifest ofPayload(byte[] payload) {
        if (payload.length < 4) {
            throw new CorruptIndexException(FORMAT + " is missing: the payload has " + payload.length + " bytes",
                    null);
        }
        long manifestBytes = Integer.toUnsignedLong(ByteBuffer.wrap(payload, payload.length - 4, 4).getInt());
        long start = payload.length - 4L - manifestBytes;
        if (start < 0) {
            throw new CorruptIndexException(FORMAT + " claims " + manifestBytes + " bytes of a payload of "
                    + payload.length, null);
        }
        Manifest manifest = parse(ByteBuffer.wrap(payload, (int) start, (int) manifestBytes).slice());
        if (manifest.ownBlockBytes != start) {
            throw new CorruptIndexException(FORMAT + " claims " + manifest.ownBlockBytes + " bytes of own blocks, the "
                    + "payload holds " + start, null);
        }
        return manifest;
    }

    /** Parses a manifest from exactly the bytes of {@code in}. */
    static Manifest parse(ByteBuffer in) {
        byte[] all = new byte[in.remaining()];
        in.duplicate().get(all);
        if (all.length < 8) {
            throw new CorruptIndexException(FORMAT + " is truncated: " + all.length + " bytes", null);
        }
        int magic = in.getInt();
        if (magic != MAGIC) {
            throw new CorruptIndexException(String.format(Locale.ROOT, FORMAT + " magic must be 0x%08X: 0x%08X",
                    MAGIC, magic), null);
        }
        int version = Short.toUnsignedInt(in.getShort());
        if (version != VERSION) {
            throw new UnsupportedFormatException(FORMAT, version, List.of(VERSION));
        }
        CRC32C crc = new CRC32C();
        crc.update(all, 0, all.length - 4);
        int stored = ByteBuffer.wrap(all, all.length - 4, 4).getInt();
        if ((int) crc.getValue() != stored) {
            throw new CorruptIndexException(String.format(Locale.ROOT, FORMAT + " checksum must be 0x%08X: 0x%08X",
                    (int) crc.getValue(), stored), null);
        }
        try {
            int flags = Short.toUnsignedInt(in.getShort());
            if (flags != 0) {
                throw new CorruptIndexException(FORMAT + " flags must be 0: " + flags, null);
            }
            int chunking = Byte.toUnsignedInt(in.get());
            int chunkBytes = in.getInt();
            long stateBytes = in.getLong();
            Sha256 stateSha = digest(in);
            long own = in.getLong();
            int segmentCount = in.getInt();
            if (segmentCount < 0 || (long) segmentCount * SEGMENT_BYTES > in.remaining()) {
                throw new CorruptIndexException(FORMAT + " claims " + segmentCount + " segments", null);
            }
            List<Segment> segments = new ArrayList<>(segmentCount);
            for (int s = 0; s < segmentCount; s++) {
                CheckpointId id = new CheckpointId(in.getLong(), in.getLong(), in.getLong());
                segments.add(new Segment(id, in.getLong(), digest(in), in.getLong()));
            }
            int blocks = in.getInt();
            if (blocks < 0 || (long) blocks * BLOCK_BYTES != in.remaining() - 4) {
                throw new CorruptIndexException(FORMAT + " claims " + blocks + " blocks in " + (in.remaining() - 4)
                        + " bytes", null);
            }
            int[] segmentOf = new int[blocks];
            long[] offset = new long[blocks];
            int[] length = new int[blocks];
            byte[] hashes = new byte[blocks * SHA];
            for (int i = 0; i < blocks; i++) {
                segmentOf[i] = in.getInt();
                offset[i] = in.getLong();
                length[i] = in.getInt();
                in.get(hashes, i * SHA, SHA);
            }
            return new Manifest(chunking, chunkBytes, stateBytes, stateSha, own, segments, blocks, segmentOf, offset,
                    length, hashes);
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new CorruptIndexException(FORMAT + " is truncated: " + all.length + " bytes", e);
        } catch (IllegalArgumentException e) {
            throw new CorruptIndexException(FORMAT + " holds an invalid value: " + e.getMessage(), e);
        }
    }

    private static Sha256 digest(ByteBuffer in) {
        byte[] digest = new byte[SHA];
        in.get(digest);
        return Sha256.wrap(digest);
    }

    /** A block's SHA-256 as four longs: a compact, fast map key. */
    record BlockHash(long a, long b, long c, long d) {
        static BlockHash of(byte[] bytes, int from) {
            ByteBuffer in = ByteBuffer.wrap(bytes, from, SHA);
            return new BlockHash(in.getLong(), in.getLong(), in.getLong(), in.getLong());
        }
    }
}
