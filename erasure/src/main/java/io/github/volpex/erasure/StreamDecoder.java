package io.github.volpex.erasure;

import io.github.volpex.erasure.FragmentFormat.Header;
import io.github.volpex.erasure.NotEnoughFragmentsException.Rejection;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * One streaming decode: reads {@code m} fragment streams in lockstep, stripe by stripe, verifying each record before
 * use and switching to a spare stream when an active one fails.
 */
final class StreamDecoder {

    private final IdaCodec codec;
    private final List<? extends InputStream> sources;
    private final OutputStream out;
    private final List<Rejection> rejections = new ArrayList<>();
    private final int m;
    private int stripeBytes;

    StreamDecoder(IdaCodec codec, List<? extends InputStream> sources, OutputStream out) {
        this.codec = codec;
        this.sources = sources;
        this.out = out;
        this.m = codec.m();
    }

    /** One fragment stream and its verification state. */
    private final class Reader {
        final int position;
        final InputStream in;
        final Header header;
        final byte[] head;
        final CRC32C crc = new CRC32C();
        final MessageDigest payloadHash = Hashing.sha256();
        final byte[] word = new byte[4];
        byte[] cell;
        /** The number of the next record; a {@code long}, since a stream may hold more than 2^31 stripes. */
        long nextStripe;
        /** The data checksum of the last record read. */
        int dataCrc;

        Reader(int position, InputStream in, Header header, byte[] head) {
            this.position = position;
            this.in = in;
            this.header = header;
            this.head = head;
        }

        /** Reads and verifies the next record into {@link #cell}; returns its data byte count. */
        int readRecord() throws IOException {
            if (cell == null) {
                cell = new byte[stripeBytes];
            }
            readFully(word, 4);
            int d = FragmentFormat.getInt(word, 0);
            int stripeData = m * stripeBytes;
            if (d < 0 || d > stripeData) {
                throw new CorruptFragmentException(header.index(), "stripe " + nextStripe + " claims "
                        + (d & 0xFFFF_FFFFL) + " data bytes; a stripe holds at most " + stripeData);
            }
            int length = Fragment.ceilDiv(d, m);
            readFully(cell, length);
            readFully(word, 4);
            int claimed = FragmentFormat.getInt(word, 0);
            readFully(word, 4);
            int stored = FragmentFormat.getInt(word, 0);
            int actual = FragmentFormat.recordCrc(crc, header.index(), (int) nextStripe, d, cell, 0, length, claimed);
            if (stored != actual) {
                throw new CorruptFragmentException(header.index(), String.format(
                        "stripe %d checksum mismatch: stored 0x%08X, computed 0x%08X", nextStripe, stored, actual));
            }
            payloadHash.update(cell, 0, length);
            dataCrc = claimed;
            nextStripe++;
            return d;
        }

        private void readFully(byte[] b, int length) throws IOException {
            int got = in.readNBytes(b, 0, length);
            if (got < length) {
                throw new EOFException("fragment " + header.index() + " ends inside stripe " + nextStripe);
            }
        }
    }

    long run() throws IOException {
        List<Reader> readers = openAll();
        readers.sort(Comparator.comparingInt(r -> r.header.index()));
        int n = codec.n();
        Reader[] active = new Reader[n];
        List<Reader> spares = new ArrayList<>();
        int distinct = 0;
        for (Reader r : readers) {
            if (active[r.header.index()] == null && distinct < m) {
                active[r.header.index()] = r;
                distinct++;
            } else {
                spares.add(r);
            }
        }
        if (distinct < m) {
            throw notEnough(active, spares);
        }
        int stripeData = m * stripeBytes;
        byte[][] cells = new byte[n][];
        byte[] stripe = new byte[stripeData];
        MessageDigest dataHash = Hashing.sha256();
        CRC32C stripeCrc = new CRC32C();
        long total = 0;
        Workspace ws = codec.workspaces().take();
        try {
            for (long s = 0; ; s++) {
                int d = -1;
                int expectedCrc = 0;
                for (int i = 0; i < n; i++) {
                    while (active[i] != null && active[i].nextStripe == s) {
                        Reader r = active[i];
                        int got;
                        try {
                            got = r.readRecord();
                        } catch (CorruptFragmentException | IOException e) {
                            reject(r, e);
                            active[i] = null;
                            i = Math.min(i, replace(active, spares, s) - 1);
                            break;
                        }
                        if (d >= 0 && got != d) {
                            throw mixed(s, d, got, r);
                        }
                        if (d >= 0 && r.dataCrc != expectedCrc) {
                            throw new IllegalArgumentException("fragments come from different encodings: stripe " + s
                                    + " of fragment " + r.header.index() + " (position " + r.position
                                    + ") belongs to other data than the other fragments' stripe " + s);
                        }
                        d = got;
                        expectedCrc = r.dataCrc;
                    }
                }
                for (int i = 0; i < n; i++) {
                    cells[i] = active[i] == null ? null : active[i].cell;
                }
                IdaCodec.DecodePlan plan = codec.plan(cells);
                codec.decodeStripe(ws, plan, cells, 0, d, stripe, 0);
                if (FragmentFormat.dataCrc(stripeCrc, stripe, 0, d) != expectedCrc) {
                    throw new CorruptFragmentException(-1, "stripe " + s + " does not decode to the data that was"
                            + " encoded (CRC32C mismatch): a fragment's records were not produced from this data;"
                            + " nothing of this stripe was written");
                }
                out.write(stripe, 0, d);
                dataHash.update(stripe, 0, d);
                total += d;
                if (d < stripeData) {
                    break;
                }
            }
        } finally {
            codec.workspaces().give(ws);
        }
        confirm(active, total, dataHash.digest());
        return total;
    }

    private IllegalArgumentException mixed(long stripe, int expected, int got, Reader r) {
        return new IllegalArgumentException("fragments come from different encodings: stripe " + stripe
                + " holds " + expected + " data bytes in the other fragments but " + got + " in fragment "
                + r.header.index() + " (position " + r.position + ")");
    }

    /**
     * Activates the first usable spare, advanced to stripe {@code s}; returns its index, or {@code n} when none is
     * left (then throws).
     */
    private int replace(Reader[] active, List<Reader> spares, long s) throws IOException {
        for (int p = 0; p < spares.size(); p++) {
            Reader r = spares.get(p);
            if (active[r.header.index()] != null) {
                continue;
            }
            spares.remove(p--);
            try {
                int stripeData = m * stripeBytes;
                while (r.nextStripe < s) {
                    long before = r.nextStripe;
                    int got = r.readRecord();
                    if (got != stripeData) {
                        throw mixed(before, stripeData, got, r);
                    }
                }
            } catch (CorruptFragmentException | IOException e) {
                reject(r, e);
                continue;
            }
            active[r.header.index()] = r;
            return r.header.index();
        }
        throw notEnough(active, spares);
    }

    private NotEnoughFragmentsException notEnough(Reader[] active, List<Reader> spares) {
        boolean[] seen = new boolean[codec.n()];
        int verified = 0;
        for (Reader r : active) {
            if (r != null && !seen[r.header.index()]) {
                seen[r.header.index()] = true;
                verified++;
            }
        }
        for (Reader r : spares) {
            if (!seen[r.header.index()]) {
                seen[r.header.index()] = true;
                verified++;
            }
        }
        List<Rejection> sorted = new ArrayList<>(rejections);
        sorted.sort(Comparator.comparingInt(Rejection::position));
        return new NotEnoughFragmentsException(sources.size(), verified, m, sorted);
    }

    private void reject(Reader r, Exception e) {
        String reason = e instanceof CorruptFragmentException ? e.getMessage()
                : "read failed: " + e.getClass().getSimpleName() + ": " + e.getMessage();
        rejections.add(new Rejection(r.position, r.header.index(), reason));
    }

    private List<Reader> openAll() {
        List<Reader> readers = new ArrayList<>();
        for (int p = 0; p < sources.size(); p++) {
            InputStream in = Objects.requireNonNull(sources.get(p), "fragmentSources element");
            byte[] head;
            Header header;
            try {
                head = in.readNBytes(FragmentFormat.HEADER_BYTES);
                header = Header.read(head, 0, head.length);
            } catch (CorruptFragmentException e) {
                rejections.add(new Rejection(p, -1, e.getMessage()));
                continue;
            } catch (IOException e) {
                rejections.add(new Rejection(p, -1, "read failed: " + e.getClass().getSimpleName() + ": "
                        + e.getMessage()));
                continue;
            }
            if (header.layout() != codec.layout() || header.m() != m || header.n() != codec.n()) {
                rejections.add(new Rejection(p, header.index(), "encoded with "
                        + IdaCodec.describe(header.layout(), header.m(), header.n() - header.m())
                        + ", not this codec's " + IdaCodec.describe(codec.layout(), m, codec.k())));
                continue;
            }
            if (readers.isEmpty()) {
                stripeBytes = header.stripeBytes();
            } else if (header.stripeBytes() != stripeBytes) {
                throw new IllegalArgumentException("fragments come from different encodings: stripe size "
                        + stripeBytes + " in fragment " + readers.get(0).header.index() + ", " + header.stripeBytes()
                        + " in fragment " + header.index() + " (position " + p + ")");
            }
            readers.add(new Reader(p, in, header, head));
        }
        return readers;
    }

    /** Checks the active fragments' trailers and the written data against their dispersal id. */
    private void confirm(Reader[] active, long total, byte[] dataHash) {
        int confirmed = 0;
        List<String> problems = new ArrayList<>();
        for (Reader r : active) {
            if (r == null) {
                continue;
            }
            byte[] trailer;
            try {
                trailer = r.in.readNBytes(FragmentFormat.TRAILER_BYTES);
            } catch (IOException e) {
                problems.add("fragment " + r.header.index() + ": trailer read failed: " + e.getMessage());
                continue;
            }
            String problem = null;
            if (trailer.length < FragmentFormat.TRAILER_BYTES) {
                problem = "truncated trailer, " + trailer.length + " of " + FragmentFormat.TRAILER_BYTES + " bytes";
            } else if (FragmentFormat.getInt(trailer, FragmentFormat.TRAILER_BYTES - 4)
                    != FragmentFormat.trailerCrc(r.head, trailer, 0)) {
                problem = "trailer checksum mismatch";
            } else if (FragmentFormat.getLong(trailer, 0) != total) {
                problem = "trailer says " + FragmentFormat.getLong(trailer, 0) + " data bytes, stripes held " + total;
            } else if (!MessageDigest.isEqual(r.payloadHash.digest(),
                    java.util.Arrays.copyOfRange(trailer, 8 + FragmentFormat.HASH_BYTES, 8 + 2 * FragmentFormat.HASH_BYTES))) {
                problem = "payload SHA-256 does not match the content id";
            } else if (!MessageDigest.isEqual(dataHash,
                    java.util.Arrays.copyOfRange(trailer, 8, 8 + FragmentFormat.HASH_BYTES))) {
                throw new CorruptFragmentException(r.header.index(), "the data written has SHA-256 "
                        + FragmentFormat.hex(dataHash) + " but fragment " + r.header.index()
                        + "'s dispersal id differs: the fragments were not all encoded from this data; discard the"
                        + " output");
            }
            if (problem == null) {
                confirmed++;
            } else {
                problems.add("fragment " + r.header.index() + ": " + problem);
            }
        }
        if (confirmed == 0) {
            throw new CorruptFragmentException(-1, "no trailer of the fragments used verifies, so the data written"
                    + " cannot be confirmed; discard the output (" + String.join("; ", problems) + ")");
        }
    }
}
