package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The payload of a differential commit read from a stream, produced as the commit reads it: the state is cut into
 * blocks as it arrives (a window of two of the chunking's largest blocks is enough for cuts identical to those of the
 * same bytes in an array) and each block new to the commit is passed on at once; at the stream's end the job is listed
 * again ({@link Differential#recheck}: a base segment that lost fragments while the stream was read is no longer
 * referred to), then the table of blocks ({@link Differential.Blocks}) decides the compaction, the live blocks of the
 * segments it drops are read back from the repositories stripe by stripe ({@link SegmentSource}, {@code m} pieces at a
 * time), each block whole and checked against the SHA-256 the base's manifest records before it is handed out, and the
 * manifest ends the payload. Nothing of the state is held beyond the window, one decoded stripe and one block read
 * back; the tables grow with the number of blocks, O(state / block size): about 300 bytes per block of the state (the
 * table's 48, up to twice that while it grows; a map entry of about 120 per new block; at the end the manifest's copy
 * and its encoding) and about 200 per block of the base (see the package documentation for the measurement).
 */
final class StreamedPlan extends InputStream {

    private final StoreContext context;
    private final Reads reads;
    private final Differential.Base base;
    private final Differential.Blocks blocks;
    private final Chunker chunker;
    private final double maxSpaceAmplification;
    private final InputStream state;
    /**
     * Lists the job again and marks the base segments that lost fragments since as not whole
     * ({@link Differential#recheck}); whether it found one. Runs once the state has ended, before the compaction
     * decides, and again after each round of blocks read back, until it finds none.
     */
    private final BooleanSupplier recheck;
    private final byte[] window;
    private final int maxBlockBytes;
    private int start;
    private int limit;
    private boolean stateEnded;

    /** What {@link #read} hands out next: {@code out[outAt, outEnd)}. */
    private byte[] out;
    private int outAt;
    private int outEnd;

    private Manifest manifest;
    private Differential.Blocks.Moves moves;
    /** The next move to read back. */
    private int move;
    private SegmentSource source;
    /** Whether {@link #source} reads only fragments whose SHA-256 was checked in full. */
    private boolean sourceVerified;
    /** The block read back last. */
    private byte[] block;
    private int sourceSegment = -1;
    private long stripesRead;
    private long stripeDecoded;
    private FragmentIndex segmentIndex;
    private Dispersal dispersal;
    private Framing framing;
    private byte[] stripe;
    private final MessageDigest moveDigest = Sha256.newDigest();
    private final byte[] digest = new byte[Sha256.LENGTH_BYTES];
    private final List<FragmentFailure> failures = new ArrayList<>();
    private boolean tailGiven;

    StreamedPlan(StoreContext context, Reads reads, Differential.Base base, Differential.Blocks blocks,
                 Chunking chunking, double maxSpaceAmplification, InputStream state, BooleanSupplier recheck) {
        this.recheck = recheck;
        this.context = context;
        this.reads = reads;
        this.base = base;
        this.blocks = blocks;
        this.chunker = chunking.chunker();
        this.maxSpaceAmplification = maxSpaceAmplification;
        this.state = state;
        this.maxBlockBytes = chunking.maxBytes();
        this.window = new byte[Math.max(2 * maxBlockBytes, 1 << 16)];
    }

    /** The checkpoint's block manifest, once the payload has been read to its end. */
    Manifest manifest() {
        if (manifest == null || !tailGiven || outAt < outEnd) {
            throw new IllegalStateException("the payload was not read to its end");
        }
        return manifest;
    }

    @Override
    public int read() throws IOException {
        while (outAt == outEnd) {
            if (!produce()) {
                return -1;
            }
        }
        return out[outAt++] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        while (outAt == outEnd) {
            if (!produce()) {
                return -1;
            }
        }
        int n = Math.min(len, outEnd - outAt);
        System.arraycopy(out, outAt, b, off, n);
        outAt += n;
        return n;
    }

    /** Makes the next bytes of the payload available; false at its end. */
    private boolean produce() throws IOException {
        if (moves == null) {
            if (nextNewBlock()) {
                return true;
            }
            recheck.getAsBoolean();
            moves = blocks.compact(maxSpaceAmplification);
        }
        while (manifest == null) {
            if (move < moves.count()) {
                readBack();
                return true;
            }
            closeSource();
            // Reading blocks back took time: a segment still referred to may have lost fragments meanwhile.
            if (moves.count() > 0 && recheck.getAsBoolean()) {
                moves = blocks.dropNoLongerWhole();
                move = 0;
            } else {
                manifest = blocks.manifest();
            }
        }
        if (tailGiven) {
            return false;
        }
        byte[] manifestBytes = manifest.toBytes();
        out = ByteBuffer.allocate(manifestBytes.length + 4).put(manifestBytes).putInt(manifestBytes.length).array();
        outAt = 0;
        outEnd = out.length;
        tailGiven = true;
        return true;
    }

    /** Cuts blocks from the stream until one is new to the commit (handed out) or the stream ends (false). */
    private boolean nextNewBlock() throws IOException {
        while (true) {
            if (!stateEnded && limit - start < maxBlockBytes) {
                System.arraycopy(window, start, window, 0, limit - start);
                limit -= start;
                start = 0;
                // Until a block of the largest size is in the window, or the stream ends: a short read is not an end.
                int need = maxBlockBytes - limit;
                int read = Streams.readAtLeast(state, window, limit, need, window.length - limit);
                limit += read;
                stateEnded = read < need;
            }
            if (start == limit) {
                return false;
            }
            int end = chunker.end(window, start, limit);
            int from = start;
            start = end;
            if (blocks.add(window, from, end - from)) {
                out = window;
                outAt = from;
                outEnd = end;
                return true;
            }
        }
    }

    /**
     * Hands out the next block that compaction moves, read back from its segment whole and checked against its
     * SHA-256 before any of it is handed out. The fragments are first read unverified but for the pieces' CRC-32C;
     * a block that does not match its digest (damage the CRCs cannot see) is read again from fragments whose
     * SHA-256 was checked in full ({@link Reads#probe}), as a recovery reads such a segment again; a block that still
     * does not match fails the commit.
     */
    private void readBack() {
        int segment = moves.segment(move);
        if (segment != sourceSegment) {
            closeSource();
            segmentIndex = base.segmentIndices()[segment];
            dispersal = context.dispersalFor(segmentIndex);
            framing = new Framing(dispersal, segmentIndex.segmentBytes(), segmentIndex.checkpointBytes());
            open(segmentIndex.fragments().stream().map(FragmentLocation::fragmentIndex).toList());
            sourceSegment = segment;
            sourceVerified = false;
            if (stripe == null || stripe.length < segmentIndex.segmentBytes()) {
                stripe = new byte[(int) Math.min(segmentIndex.segmentBytes(),
                        Math.max(1, segmentIndex.checkpointBytes()))];
            }
        }
        int length = moves.length(move);
        if (block == null || block.length < length) {
            block = new byte[length];
        }
        if (!readBlock(length)) {
            if (!sourceVerified) {
                source.close();
                List<Integer> verified = new ArrayList<>(reads.probe(segmentIndex, failures));
                open(verified);
                sourceVerified = true;
            }
            if (!readBlock(length)) {
                failures.add(new FragmentFailure(-1, "decoder", FragmentFailure.Reason.CORRUPT, "a block read back "
                        + "from segment " + segmentIndex.checkpointId() + " at offset " + moves.offset(move)
                        + " does not match its digest"));
                throw new CheckpointUnavailableException(segmentIndex.jobId(), segmentIndex.sequence(),
                        segmentIndex.m(), 0, failures);
            }
        }
        out = block;
        outAt = 0;
        outEnd = length;
        move++;
    }

    /** Reads the fragments {@code order} names, in that order of preference, from the segment's first stripe. */
    private void open(List<Integer> order) {
        source = new SegmentSource(segmentIndex, framing, dispersal, context.byId, order, failures);
        stripesRead = 0;
        stripeDecoded = -1;
    }

    /** Copies the move's block into {@code block}; whether it matches its digest. */
    private boolean readBlock(int length) {
        int stripeBytes = segmentIndex.segmentBytes();
        long from = moves.offset(move);
        if (from / stripeBytes < stripeDecoded) {
            // Blocks are read in order of offset; only a source opened again starts over.
            throw new IllegalStateException("read back out of order");
        }
        for (int done = 0; done < length; ) {
            long at = from + done;
            long t = at / stripeBytes;
            while (stripeDecoded < t) {
                // Every stripe up to the one needed is read (the fragments are streams); only that one is decoded.
                byte[][] pieces = source.next(stripesRead);
                if (stripesRead == t) {
                    dispersal.decode(pieces, framing.segmentLength(t), stripe);
                    stripeDecoded = t;
                }
                stripesRead++;
            }
            int within = (int) (at - t * stripeBytes);
            int bytes = Math.min(length - done, framing.segmentLength(t) - within);
            System.arraycopy(stripe, within, block, done, bytes);
            done += bytes;
        }
        moveDigest.update(block, 0, length);
        try {
            moveDigest.digest(digest, 0, digest.length);
        } catch (DigestException e) {
            throw new IllegalStateException("SHA-256 failed", e);
        }
        return moves.matches(move, digest);
    }

    private void closeSource() {
        if (source != null) {
            source.close();
            source = null;
            sourceSegment = -1;
        }
    }

    @Override
    public void close() {
        closeSource();
    }
}
