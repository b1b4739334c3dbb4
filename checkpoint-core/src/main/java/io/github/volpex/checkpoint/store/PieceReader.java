package io.github.volpex.checkpoint.store;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/**
 * Reads one stored fragment piece by piece, checking each piece's CRC-32C as it goes and, at the end, the fragment's
 * length and SHA-256 against the index.
 */
final class PieceReader implements Closeable {

    final int fragmentIndex;
    final String repositoryId;
    private final FragmentLocation location;
    private final Framing framing;
    private final Dispersal dispersal;
    private final InputStream in;
    private final MessageDigest digest = Sha256.newDigest();
    private final byte[] crc = new byte[Framing.CRC_BYTES];
    private long nextSegment;
    private long bytesRead;

    PieceReader(FragmentLocation location, Framing framing, Dispersal dispersal, InputStream in) {
        this.fragmentIndex = location.fragmentIndex();
        this.repositoryId = location.repositoryId();
        this.location = location;
        this.framing = framing;
        this.dispersal = dispersal;
        this.in = in;
    }

    /** The segment the next call to {@link #next()} reads. */
    long nextSegment() {
        return nextSegment;
    }

    /** Reads and checks the next piece; returns a new array holding it. */
    byte[] next() throws IOException {
        int length = dispersal.pieceLength(framing.segmentLength(nextSegment));
        byte[] piece = new byte[length];
        readFully(piece, length);
        readFully(crc, Framing.CRC_BYTES);
        digest.update(piece);
        digest.update(crc);
        if (Framing.crc(piece, length) != Framing.getCrc(crc, 0)) {
            throw new DamagedFragmentException("piece " + nextSegment + " of fragment " + fragmentIndex
                    + " fails its CRC-32C");
        }
        nextSegment++;
        return piece;
    }

    /** Checks that the fragment ends here and has the length and digest the index records. */
    void finish() throws IOException {
        if (nextSegment != framing.segments()) {
            throw new IllegalStateException("finish after " + nextSegment + " of " + framing.segments() + " pieces");
        }
        if (in.read() != -1) {
            throw new DamagedFragmentException("fragment " + fragmentIndex + " is longer than " + location.lengthBytes()
                    + " bytes");
        }
        Sha256 actual = Sha256.wrap(digest.digest());
        if (bytesRead != location.lengthBytes() || !actual.equals(location.sha256())) {
            throw new DamagedFragmentException("fragment " + fragmentIndex + " has digest " + actual + ", the index "
                    + "records " + location.sha256());
        }
    }

    /** Reads every piece and finishes: a full check of the fragment in bounded memory. */
    void verifyAll() throws IOException {
        while (nextSegment < framing.segments()) {
            next();
        }
        finish();
    }

    private void readFully(byte[] buffer, int length) throws IOException {
        int read = Streams.readAtLeast(in, buffer, 0, length, length);
        bytesRead += read;
        if (read != length) {
            throw new DamagedFragmentException("fragment " + fragmentIndex + " ends after " + bytesRead + " of "
                    + location.lengthBytes() + " bytes");
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
