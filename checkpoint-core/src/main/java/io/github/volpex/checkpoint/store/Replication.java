package io.github.volpex.checkpoint.store;

import java.util.Arrays;

/** Ephemeral mode: every piece is a copy of the segment ({@code m = 1}). */
final class Replication implements Dispersal {

    private final int copies;

    Replication(int copies) {
        if (copies < 1 || copies > FragmentIndex.MAX_FRAGMENTS) {
            throw new IllegalArgumentException("copies must be in [1, " + FragmentIndex.MAX_FRAGMENTS + "]: " + copies);
        }
        this.copies = copies;
    }

    @Override
    public Encoding encoding() {
        return Encoding.REPLICAS;
    }

    @Override
    public int stripeBytes() {
        return 0;
    }

    @Override
    public int m() {
        return 1;
    }

    @Override
    public int n() {
        return copies;
    }

    @Override
    public int pieceLength(int segmentLength) {
        return segmentLength;
    }

    @Override
    public void encode(byte[] segment, int length, byte[][] pieces) {
        for (int i = 0; i < copies; i++) {
            System.arraycopy(segment, 0, pieces[i], 0, length);
        }
    }

    @Override
    public void decode(byte[][] pieces, int segmentLength, byte[] out) {
        System.arraycopy(present(pieces), 0, out, 0, segmentLength);
    }

    @Override
    public void regenerate(byte[][] pieces, int segmentLength, int[] missing) {
        byte[] source = present(pieces);
        for (int i : missing) {
            pieces[i] = Arrays.copyOf(source, segmentLength);
        }
    }

    private static byte[] present(byte[][] pieces) {
        for (byte[] piece : pieces) {
            if (piece != null) {
                return piece;
            }
        }
        throw new IllegalStateException("no piece is present");
    }
}
