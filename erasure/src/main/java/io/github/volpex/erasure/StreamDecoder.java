package io.github.volpex.erasure;

import io.github.volpex.erasure.FragmentFormat.Header;
import io.github.volpex.erasure.NotEnoughFragmentsException.Rejection;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * One streaming decode: reads fragment streams in lockstep, stripe by stripe, verifying each record before use. It
 * starts with the streams of the {@code m} lowest indexes and brings in spare streams when one fails, when the
 * streams in use disagree about a stripe (fragments of another dispersal, or of the same data cut differently), or
 * when a rebuilt stripe does not match its data checksum (a fragment relabelled or altered): then other choices of
 * {@code m} fragments are tried for that stripe. What it treats as lost is what {@code decodeBytes} treats as lost.
 */
final class StreamDecoder {

    private final IdaCodec codec;
    private final List<? extends InputStream> sources;
    private final OutputStream out;
    private final byte[] wanted;
    private final List<Rejection> rejections = new ArrayList<>();
    private final int m;
    private final int n;
    private int stripeBytes;
    /** The running checksum of the (data bytes, data CRC32C) of every stripe written, as each reader keeps its own. */
    private final CRC32C history = new CRC32C();
    /** Readers by fragment index, then by position among the streams given. */
    private static final Comparator<Reader> BY_INDEX = Comparator.comparingInt(Reader::index)
            .thenComparingInt(r -> r.position);

    StreamDecoder(IdaCodec codec, List<? extends InputStream> sources, OutputStream out, String wantedDispersalId) {
        this.codec = codec;
        this.sources = sources;
        this.out = out;
        this.wanted = wantedDispersalId == null ? null : Recovery.parseId(wantedDispersalId);
        this.m = codec.m();
        this.n = codec.n();
    }

    /** One fragment stream and its verification state. */
    private final class Reader {
        final int position;
        final InputStream in;
        final Header header;
        final byte[] head;
        final CRC32C crc = new CRC32C();
        final CRC32C chain = new CRC32C();
        final MessageDigest payloadHash = Hashing.sha256();
        final byte[] word = new byte[4];
        byte[] cell;
        /** The number of the next record; a {@code long}, since a stream may hold more than 2^31 stripes. */
        long nextStripe;
        /** The data byte count and data checksum of the last record read. */
        int dataBytes;
        int dataCrc;
        /** The trailer, once read: early, when the first record is the last one (see chooseStripeSize). */
        byte[] trailer;

        Reader(int position, InputStream in, Header header, byte[] head) {
            this.position = position;
            this.in = in;
            this.header = header;
            this.head = head;
        }

        int index() {
            return header.index();
        }

        /** Reads and verifies the next record into {@link #cell}. */
        void readRecord() throws IOException {
            int stripe = header.stripeBytes();
            if (cell == null) {
                cell = new byte[stripe];
            }
            readFully(word, 4);
            int d = FragmentFormat.getInt(word, 0);
            int stripeData = m * stripe;
            if (d < 0 || d > stripeData) {
                throw new CorruptFragmentException(index(), "stripe " + nextStripe + " claims "
                        + (d & 0xFFFF_FFFFL) + " data bytes; a stripe holds at most " + stripeData);
            }
            int length = Fragment.ceilDiv(d, m);
            readFully(cell, length);
            readFully(word, 4);
            int claimed = FragmentFormat.getInt(word, 0);
            readFully(word, 4);
            int stored = FragmentFormat.getInt(word, 0);
            int actual = FragmentFormat.recordCrc(crc, index(), (int) nextStripe, d, cell, 0, length, claimed);
            if (stored != actual) {
                throw new CorruptFragmentException(index(), String.format(
                        "stripe %d checksum mismatch: stored 0x%08X, computed 0x%08X", nextStripe, stored, actual));
            }
            payloadHash.update(cell, 0, length);
            dataBytes = d;
            dataCrc = claimed;
            fold(chain, d, claimed);
            nextStripe++;
        }

        private void readFully(byte[] b, int length) throws IOException {
            int got = in.readNBytes(b, 0, length);
            if (got < length) {
                throw new EOFException("fragment " + index() + " ends inside stripe " + nextStripe);
            }
        }

        /** Whether this reader's last record says the same about its stripe as {@code other}'s. */
        boolean agrees(Reader other) {
            return dataBytes == other.dataBytes && dataCrc == other.dataCrc;
        }
    }

    private static void fold(CRC32C chain, int dataBytes, int dataCrc) {
        byte[] b = new byte[8];
        FragmentFormat.putInt(b, 0, dataBytes);
        FragmentFormat.putInt(b, 4, dataCrc);
        chain.update(b, 0, 8);
    }

    long run() throws IOException {
        List<Reader> readers = chooseStripeSize(openAll());
        readers.sort(BY_INDEX);
        List<Reader> live = new ArrayList<>();
        List<Reader> spares = new ArrayList<>();
        BitSet seen = new BitSet();
        for (Reader r : readers) {
            if (!seen.get(r.index()) && seen.cardinality() < m) {
                seen.set(r.index());
                live.add(r);
            } else {
                spares.add(r);
            }
        }
        if (seen.cardinality() < m) {
            throw notEnough(seen.cardinality());
        }
        int stripeData = m * stripeBytes;
        byte[] stripe = new byte[stripeData];
        MessageDigest dataHash = Hashing.sha256();
        CRC32C stripeCrc = new CRC32C();
        long total = 0;
        long stripes = 0;
        Reader[] choice = null;
        Workspace ws = codec.workspaces().take();
        try {
            for (long s = 0; ; s++) {
                readStripe(live, s);
                List<Reader> group = agreeing(live, spares, s);
                int d = group.get(0).dataBytes;
                int expectedCrc = group.get(0).dataCrc;
                if (choice == null || !group.containsAll(Arrays.asList(choice))) {
                    choice = firstChoice(group);
                }
                if (!decode(ws, choice, d, stripe, stripeCrc, expectedCrc)) {
                    // A fragment in use verifies but does not rebuild this stripe: bring in every spare and try
                    // other choices of m among the fragments that agree.
                    while (!spares.isEmpty()) {
                        activate(spares.remove(0), live, s);
                    }
                    group = agreeing(live, spares, s);
                    choice = search(ws, group, d, stripe, stripeCrc, expectedCrc, s);
                }
                out.write(stripe, 0, d);
                dataHash.update(stripe, 0, d);
                fold(history, d, expectedCrc);
                total += d;
                stripes++;
                if (d < stripeData) {
                    break;
                }
            }
        } finally {
            codec.workspaces().give(ws);
        }
        confirm(live, spares, stripes, total, dataHash.digest());
        return total;
    }

    /** Reads stripe {@code s} of every live reader; one that fails is rejected and dropped. */
    private void readStripe(List<Reader> live, long s) {
        for (int i = 0; i < live.size(); i++) {
            Reader r = live.get(i);
            if (r.nextStripe != s) {
                continue;
            }
            try {
                r.readRecord();
            } catch (CorruptFragmentException | IOException e) {
                reject(r, e);
                live.remove(i--);
            }
        }
    }

    /**
     * The live readers that agree about stripe {@code s} and hold {@code m} distinct indexes, bringing in spares
     * until some do; the live readers that disagree with them are rejected, with what differs.
     */
    private List<Reader> agreeing(List<Reader> live, List<Reader> spares, long s) {
        while (true) {
            if (live.isEmpty()) {
                if (spares.isEmpty()) {
                    throw notEnough(0);
                }
                activate(spares.remove(0), live, s);
                continue;
            }
            Map<Long, List<Reader>> byRecord = new LinkedHashMap<>();
            for (Reader r : live) {
                byRecord.computeIfAbsent((long) r.dataBytes << 32 | (r.dataCrc & 0xFFFF_FFFFL),
                        key -> new ArrayList<>()).add(r);
            }
            List<Reader> best = null;
            int bestDistinct = -1;
            for (List<Reader> group : byRecord.values()) {
                int distinct = distinct(group);
                if (distinct >= m && bestDistinct >= m) {
                    throw new IllegalArgumentException("fragments of two dispersals can each be decoded: they agree"
                            + " up to stripe " + s + ", where fragment " + best.get(0).index() + " (position "
                            + best.get(0).position + ") and fragment " + group.get(0).index() + " (position "
                            + group.get(0).position + ") hold different data; name the one wanted with"
                            + " decode(…, dispersalId)");
                }
                if (distinct > bestDistinct) {
                    best = group;
                    bestDistinct = distinct;
                }
            }
            if (bestDistinct >= m || spares.isEmpty()) {
                for (int i = 0; i < live.size(); i++) {
                    Reader r = live.get(i);
                    if (!r.agrees(best.get(0))) {
                        rejections.add(new Rejection(r.position, r.index(), disagreement(r, best, s)));
                        live.remove(i--);
                    }
                }
                if (bestDistinct < m) {
                    throw notEnough(bestDistinct);
                }
                return best;
            }
            activate(spares.remove(0), live, s);
        }
    }

    private static int distinct(List<Reader> readers) {
        BitSet indexes = new BitSet();
        for (Reader r : readers) {
            indexes.set(r.index());
        }
        return indexes.cardinality();
    }

    private static String disagreement(Reader r, List<Reader> group, long s) {
        Reader g = group.get(0);
        String role = "the " + group.size() + " fragments in use";
        if (r.dataBytes != g.dataBytes) {
            return "stripe " + s + " holds " + r.dataBytes + " data bytes, not the " + g.dataBytes + " of " + role
                    + ": another dispersal, or the same data cut differently";
        }
        return String.format("stripe %d data CRC32C 0x%08X differs from the 0x%08X of %s: a fragment of another"
                + " dispersal, or a record spliced from one", s, r.dataCrc, g.dataCrc, role);
    }

    /**
     * Brings a spare in: reads its records up to and including stripe {@code s}, checking that its earlier stripes
     * are the ones written; a spare that fails or differs is rejected.
     */
    private void activate(Reader r, List<Reader> live, long s) {
        try {
            while (r.nextStripe <= s) {
                if (r.nextStripe == s && r.chain.getValue() != history.getValue()) {
                    rejections.add(new Rejection(r.position, r.index(), "its stripes before stripe " + s
                            + " hold other data than the stripes written (another dispersal)"));
                    return;
                }
                r.readRecord();
                if (r.nextStripe <= s && r.dataBytes != m * stripeBytes) {
                    rejections.add(new Rejection(r.position, r.index(), "stripe " + (r.nextStripe - 1) + " holds "
                            + r.dataBytes + " data bytes, where the stripes written were full: another dispersal"));
                    return;
                }
            }
        } catch (CorruptFragmentException | IOException e) {
            reject(r, e);
            return;
        }
        live.add(r);
        live.sort(BY_INDEX);
    }

    /** The first reader of each of the {@code m} lowest indexes. */
    private Reader[] firstChoice(List<Reader> group) {
        List<Reader> sorted = new ArrayList<>(group);
        sorted.sort(BY_INDEX);
        return Recovery.pick(sorted, Recovery.firstOfEachIndex(Recovery.indexes(sorted, Reader::index), m))
                .toArray(new Reader[0]);
    }

    /** Rebuilds the stripe from a choice of readers; returns whether it matches its data checksum. */
    private boolean decode(Workspace ws, Reader[] choice, int d, byte[] stripe, CRC32C stripeCrc, int expectedCrc) {
        byte[][] cells = new byte[n][];
        for (Reader r : choice) {
            cells[r.index()] = r.cell;
        }
        codec.decodeStripe(ws, codec.plan(cells), cells, 0, d, stripe, 0);
        return FragmentFormat.dataCrc(stripeCrc, stripe, 0, d) == expectedCrc;
    }

    /** Tries other choices of {@code m} readers of the group until one rebuilds the stripe. */
    private Reader[] search(Workspace ws, List<Reader> group, int d, byte[] stripe, CRC32C stripeCrc,
                            int expectedCrc, long s) {
        List<Reader> members = new ArrayList<>(group);
        members.sort(BY_INDEX);
        int[] indexOf = Recovery.indexes(members, Reader::index);
        Recovery.Choices choices = new Recovery.Choices(indexOf, Recovery.firstOfEachIndex(indexOf, m));
        int tried = 0;
        for (int[] c = choices.first(); c != null && tried < Recovery.MAX_CHOICES_PER_STRIPE; c = choices.next()) {
            tried++;
            Reader[] candidate = new Reader[m];
            for (int t = 0; t < m; t++) {
                candidate[t] = members.get(c[t]);
            }
            if (decode(ws, candidate, d, stripe, stripeCrc, expectedCrc)) {
                return candidate;
            }
        }
        throw new CorruptFragmentException(-1, "stripe " + s + " does not decode to the data that was encoded"
                + " (CRC32C mismatch) with any choice of " + m + " of the " + members.size() + " fragments that agree"
                + " about it (" + (tried + 1) + " tried): a fragment's records were not produced from this data;"
                + " nothing of this stripe was written");
    }

    /** No m agree: {@code verified} is the most distinct fragments that do. */
    private NotEnoughFragmentsException notEnough(int verified) {
        List<Rejection> sorted = new ArrayList<>(rejections);
        sorted.sort(Comparator.comparingInt(Rejection::position));
        return new NotEnoughFragmentsException(sources.size(), verified, m, sorted);
    }

    private void reject(Reader r, Exception e) {
        String reason = e instanceof CorruptFragmentException ? e.getMessage()
                : "read failed: " + e.getClass().getSimpleName() + ": " + e.getMessage();
        rejections.add(new Rejection(r.position, r.index(), reason));
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
            String foreign = codec.foreign(header.layout(), header.m(), header.n());
            if (foreign != null) {
                rejections.add(new Rejection(p, header.index(), foreign));
                continue;
            }
            readers.add(new Reader(p, in, header, head));
        }
        return readers;
    }

    /**
     * Keeps the readers of one stripe size; the others are rejected, so a header whose stripe size was altered
     * (checksum recomputed) is lost like any fragment that does not verify. When the streams disagree, each one's
     * first record is read first, and a stream whose first record is short — its last, for its stripe size — has its
     * trailer read and checked at once (the trailer's checksum covers the header's stripe size, and its length must
     * be that record's). The stripe size kept is the one with the most distinct indexes whose first record verifies;
     * then the one a trailer confirmed; then the one whose first records are full stripes (a stripe size larger than
     * the real one reads a full first record as a short last one, which its trailer then refutes); then the first
     * stream's. A short single stripe with a smaller stripe size forged onto one of its fragments reads as full, so
     * only the trailer of a genuine fragment tells them apart.
     */
    private List<Reader> chooseStripeSize(List<Reader> readers) {
        Map<Integer, List<Reader>> bySize = new LinkedHashMap<>();
        for (Reader r : readers) {
            bySize.computeIfAbsent(r.header.stripeBytes(), size -> new ArrayList<>()).add(r);
        }
        if (bySize.size() <= 1) {
            if (!readers.isEmpty()) {
                stripeBytes = readers.get(0).header.stripeBytes();
            }
            return readers;
        }
        for (List<Reader> group : bySize.values()) {
            for (int i = 0; i < group.size(); i++) {
                Reader r = group.get(i);
                try {
                    r.readRecord();
                } catch (CorruptFragmentException | IOException e) {
                    reject(r, e);
                    group.remove(i--);
                    continue;
                }
                if (r.dataBytes < m * r.header.stripeBytes()) {
                    String problem = trailerProblem(r, r.dataBytes, null);
                    if (problem != null) {
                        rejections.add(new Rejection(r.position, r.index(), "with its stripe size of "
                                + r.header.stripeBytes() + " bytes stripe 0 is the last, but what follows is not its"
                                + " trailer: " + problem));
                        group.remove(i--);
                    }
                }
            }
        }
        List<Reader> kept = List.of();
        int keptRank = -1;
        for (List<Reader> group : bySize.values()) {
            boolean confirmed = false;
            int full = 0;
            for (Reader r : group) {
                if (r.dataBytes == m * r.header.stripeBytes()) {
                    full++;
                } else {
                    confirmed = true;
                }
            }
            // Ranked by distinct indexes, then a trailer's confirmation, then full first records.
            int rank = (confirmed ? 1 << 16 : 0) + full;
            if (distinct(group) > distinct(kept) || distinct(group) == distinct(kept) && rank > keptRank) {
                kept = group;
                keptRank = rank;
            }
        }
        if (kept.isEmpty()) {
            return new ArrayList<>();
        }
        stripeBytes = kept.get(0).header.stripeBytes();
        for (List<Reader> group : bySize.values()) {
            if (group != kept) {
                for (Reader r : group) {
                    rejections.add(new Rejection(r.position, r.index(), "stripe size " + r.header.stripeBytes()
                            + " bytes differs from the " + stripeBytes + " of the " + kept.size()
                            + " fragments in use"));
                }
            }
        }
        return new ArrayList<>(kept);
    }

    /**
     * Checks the trailers of the readers in use and the written data: with a wanted dispersal id, the data's
     * SHA-256 must be it; in any case at least one trailer must verify and name the data's SHA-256. When no trailer
     * of the readers in use does, the spares are read through, their stripes checked against the ones written, to
     * find one that does.
     */
    private void confirm(List<Reader> live, List<Reader> spares, long stripes, long total, byte[] dataHash) {
        if (wanted != null && !MessageDigest.isEqual(dataHash, wanted)) {
            throw new CorruptFragmentException(-1, "the data written has SHA-256 " + FragmentFormat.hex(dataHash)
                    + ", not the wanted dispersal id " + FragmentFormat.hex(wanted) + ": discard the output");
        }
        List<String> problems = new ArrayList<>();
        for (Reader r : live) {
            String problem = trailerProblem(r, total, dataHash);
            if (problem == null) {
                return;
            }
            problems.add("fragment " + r.index() + ": " + problem);
        }
        for (Reader r : spares) {
            String problem;
            try {
                while (r.nextStripe < stripes) {
                    r.readRecord();
                }
                problem = r.chain.getValue() == history.getValue() ? trailerProblem(r, total, dataHash)
                        : "its stripes hold other data than the stripes written";
            } catch (CorruptFragmentException | IOException e) {
                problem = e.getMessage();
            }
            if (problem == null) {
                return;
            }
            problems.add("fragment " + r.index() + ": " + problem);
        }
        throw new CorruptFragmentException(-1, "no trailer of the fragments verifies and names the data written, so"
                + " it cannot be confirmed; discard the output (" + String.join("; ", problems) + ")");
    }

    /**
     * Reads a reader's trailer, positioned after its last record (or takes the one read before); returns what is
     * wrong with it, or null. With a null {@code dataHash}, the data's hash is not checked (not known yet) nor is the
     * payload's (the content id is kept for the final check).
     */
    private static String trailerProblem(Reader r, long total, byte[] dataHash) {
        byte[] trailer = r.trailer;
        if (trailer == null) {
            try {
                trailer = r.in.readNBytes(FragmentFormat.TRAILER_BYTES);
            } catch (IOException e) {
                return "trailer read failed: " + e.getMessage();
            }
            r.trailer = trailer;
        }
        if (trailer.length < FragmentFormat.TRAILER_BYTES) {
            return "truncated trailer, " + trailer.length + " of " + FragmentFormat.TRAILER_BYTES + " bytes";
        }
        if (FragmentFormat.getInt(trailer, FragmentFormat.TRAILER_BYTES - 4)
                != FragmentFormat.trailerCrc(r.head, trailer, 0)) {
            return "trailer checksum mismatch";
        }
        if (FragmentFormat.getLong(trailer, 0) != total) {
            return "trailer says " + FragmentFormat.getLong(trailer, 0) + " data bytes, stripes held " + total;
        }
        if (dataHash == null) {
            return null;
        }
        if (!MessageDigest.isEqual(r.payloadHash.digest(), Arrays.copyOfRange(trailer,
                8 + FragmentFormat.HASH_BYTES, 8 + 2 * FragmentFormat.HASH_BYTES))) {
            return "payload SHA-256 does not match the content id";
        }
        byte[] named = Arrays.copyOfRange(trailer, 8, 8 + FragmentFormat.HASH_BYTES);
        if (!MessageDigest.isEqual(dataHash, named)) {
            return "its dispersal id " + FragmentFormat.hex(named) + " is not the SHA-256 of the data written, "
                    + FragmentFormat.hex(dataHash);
        }
        return null;
    }
}
