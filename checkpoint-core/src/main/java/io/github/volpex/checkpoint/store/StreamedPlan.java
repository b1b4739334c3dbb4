package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The payload of a differential commit read from a stream, produced as the commit reads it: the state is cut into
 * blocks as it arrives (a window of two of the chunking's largest blocks is enough for cuts identical to those of the
 * same bytes in an array) and each block new to the commit is passed on at once; at the stream's end the table of
 * blocks ({@link Differential.Blocks}) decides the compaction, the live blocks of the segments it drops are read back
 * from the repositories stripe by stripe ({@link SegmentSource}, {@code m} pieces at a time) and checked against the
 * SHA-256 the base's manifest records, and the manifest ends the payload. Nothing of the state is held beyond the
 * window and one decoded stripe; the table holds 48 bytes per block, as the manifest does.
 */
final class StreamedPlan extends InputStream {

    private final StoreContext context;
    private final Differential.Base base;
    private final Differential.Blocks blocks;
    private final Chunker chunker;
    private final double maxSpaceAmplification;
    private final InputStream state;
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
    /** The move being read back, and how many of its bytes were handed out. */
    private int move;
    private int moveDone;
    private SegmentSource source;
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

    StreamedPlan(StoreContext context, Differential.Base base, Differential.Blocks blocks, Chunking chunking,
                 double maxSpaceAmplification, InputStream state) {
        this.context = context;
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
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
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
        if (manifest == null) {
            if (nextNewBlock()) {
                return true;
            }
            moves = blocks.compact(maxSpaceAmplification);
            manifest = blocks.manifest();
        }
        if (move < moves.count()) {
            readBack();
            return true;
        }
        closeSource();
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
                while (limit < maxBlockBytes) {
                    int read = state.read(window, limit, window.length - limit);
                    if (read < 0) {
                        stateEnded = true;
                        break;
                    }
                    limit += read;
                }
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

    /** Hands out the next bytes of the move being read back: up to the end of the move or of its stripe. */
    private void readBack() {
        int segment = moves.segment(move);
        if (segment != sourceSegment) {
            closeSource();
            segmentIndex = base.segmentIndices()[segment];
            dispersal = context.dispersalFor(segmentIndex);
            framing = new Framing(dispersal, segmentIndex.segmentBytes(), segmentIndex.checkpointBytes());
            List<Integer> order = segmentIndex.fragments().stream().map(FragmentLocation::fragmentIndex).toList();
            source = new SegmentSource(segmentIndex, framing, dispersal, context.byId, order, failures);
            sourceSegment = segment;
            stripesRead = 0;
            stripeDecoded = -1;
            if (stripe == null || stripe.length < segmentIndex.segmentBytes()) {
                stripe = new byte[(int) Math.min(segmentIndex.segmentBytes(),
                        Math.max(1, segmentIndex.checkpointBytes()))];
            }
        }
        int stripeBytes = segmentIndex.segmentBytes();
        long at = moves.offset(move) + moveDone;
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
        int bytes = Math.min(moves.length(move) - moveDone, framing.segmentLength(t) - within);
        moveDigest.update(stripe, within, bytes);
        out = stripe;
        outAt = within;
        outEnd = within + bytes;
        moveDone += bytes;
        if (moveDone == moves.length(move)) {
            try {
                moveDigest.digest(digest, 0, digest.length);
            } catch (DigestException e) {
                throw new IllegalStateException("SHA-256 failed", e);
            }
            if (!moves.matches(move, digest)) {
                failures.add(new FragmentFailure(-1, "decoder", FragmentFailure.Reason.CORRUPT, "a block read back "
                        + "from segment " + segmentIndex.checkpointId() + " at offset " + moves.offset(move)
                        + " does not match its digest"));
                throw new CheckpointUnavailableException(segmentIndex.jobId(), segmentIndex.sequence(),
                        segmentIndex.m(), 0, failures);
            }
            move++;
            moveDone = 0;
        }
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
