package io.github.volpex.erasure;

import io.github.volpex.erasure.FragmentFormat.Header;
import io.github.volpex.erasure.NotEnoughFragmentsException.Rejection;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.ToIntFunction;
import java.util.zip.CRC32C;

/**
 * Decoding from a heap of fragments that may hold more than one dispersal: verified fragments are grouped by
 * encoding (dispersal id, data length, stripe size and every stripe's data checksum), the group with {@code m}
 * distinct indexes is decoded (the one the caller names, if any), and the others are reported with what differs.
 * When the first choice of {@code m} fragments does not rebuild data matching the dispersal id (a fragment
 * relabelled with another index, or altered with its checksums recomputed), other choices are tried stripe by
 * stripe, each stripe checked against its data checksum before the next.
 */
final class Recovery {

    /**
     * The most choices of {@code m} fragments tried for one stripe before giving up: enough for every choice that
     * replaces one or two fragments in codes of the usual sizes, bounded so an adversarial heap cannot make a decode
     * run for ever.
     */
    static final int MAX_CHOICES_PER_STRIPE = 1024;

    private final IdaCodec codec;
    private final int m;
    private final byte[] wanted;
    private final String operation;
    private final boolean reporting;
    private final List<Rejection> rejections = new ArrayList<>();
    private final List<Group> groups = new ArrayList<>();
    private int given;

    private Recovery(IdaCodec codec, String wantedDispersalId, String operation, boolean reporting) {
        this.codec = codec;
        this.m = codec.m();
        this.wanted = wantedDispersalId == null ? null : parseId(wantedDispersalId);
        this.operation = operation;
        this.reporting = reporting;
    }

    /** The 32 bytes of a dispersal id given as 64 hexadecimal digits. */
    static byte[] parseId(String dispersalId) {
        Objects.requireNonNull(dispersalId, "dispersalId");
        if (dispersalId.length() == 2 * FragmentFormat.HASH_BYTES) {
            try {
                return HexFormat.of().parseHex(dispersalId);
            } catch (IllegalArgumentException notHex) {
                // Reported below, with the whole id.
            }
        }
        throw new IllegalArgumentException("dispersalId must be 64 hexadecimal digits: \"" + dispersalId + "\"");
    }

    /** A verified fragment and its position in what the caller passed. */
    record Candidate(int position, Fragment fragment) {
        int index() {
            return fragment.index();
        }
    }

    /** Verified fragments of one encoding. */
    static final class Group {
        final Fragment first;
        final List<Candidate> members = new ArrayList<>();
        final BitSet indexes = new BitSet();

        Group(Fragment first) {
            this.first = first;
        }

        boolean sameEncoding(Fragment f) {
            return f.dataLength() == first.dataLength() && f.stripeSizeBytes() == first.stripeSizeBytes()
                    && MessageDigest.isEqual(f.dispersalIdBytes(), first.dispersalIdBytes())
                    && Arrays.equals(f.dataCrcs(), first.dataCrcs());
        }

        int distinct() {
            return indexes.cardinality();
        }

        int firstPosition() {
            return members.get(0).position();
        }
    }

    /**
     * What sets {@code f} apart from the fragments of {@code reference}'s encoding, for a rejection or an error: the
     * first of dispersal id, data length, stripe size and stripe data checksum that differs.
     */
    static String difference(Fragment f, Fragment reference, String referenceRole) {
        if (!MessageDigest.isEqual(f.dispersalIdBytes(), reference.dispersalIdBytes())) {
            return "dispersal id " + f.dispersalId() + " differs from the " + reference.dispersalId() + " of "
                    + referenceRole;
        }
        String same = " (the dispersal id is the same: a trailer or record forged or spliced from other data)";
        if (f.dataLength() != reference.dataLength()) {
            return "data length " + f.dataLength() + " bytes differs from the " + reference.dataLength() + " of "
                    + referenceRole + same;
        }
        if (f.stripeSizeBytes() != reference.stripeSizeBytes()) {
            return "stripe size " + f.stripeSizeBytes() + " bytes differs from the " + reference.stripeSizeBytes()
                    + " of " + referenceRole + same;
        }
        int[] a = f.dataCrcs();
        int[] b = reference.dataCrcs();
        for (int s = 0; s < Math.min(a.length, b.length); s++) {
            if (a[s] != b[s]) {
                return String.format("stripe %d data CRC32C 0x%08X differs from the 0x%08X of %s%s", s, a[s], b[s],
                        referenceRole, same);
            }
        }
        return "nothing differs from " + referenceRole;
    }

    // ------------------------------------------------------------------------------------------- entry points

    static DecodeResult fromFragments(IdaCodec codec, Collection<Fragment> fragments, String wantedDispersalId,
                                      String operation) {
        Objects.requireNonNull(fragments, "fragments");
        Recovery r = new Recovery(codec, wantedDispersalId, operation, false);
        for (Fragment f : fragments) {
            Objects.requireNonNull(f, "fragments element");
            r.offer(r.given++, f);
        }
        return r.finish(() -> {
        });
    }

    /** The groups of verified fragments, for repair: the complete group, checked for ambiguity. */
    static Group completeGroup(IdaCodec codec, Collection<Fragment> fragments, String operation) {
        Objects.requireNonNull(fragments, "fragments");
        Recovery r = new Recovery(codec, null, operation, false);
        for (Fragment f : fragments) {
            Objects.requireNonNull(f, "fragments element");
            r.offer(r.given++, f);
        }
        return r.choose().get(0);
    }

    /**
     * Decodes stored fragments. With {@code reporting}, the result's used positions are exact: every one holds, byte
     * for byte, the fragment of its index that the rebuilt data encodes to (see {@link DecodeResult#usedPositions}).
     */
    static DecodeResult fromBytes(IdaCodec codec, Collection<byte[]> encodedFragments, String wantedDispersalId,
                                  String operation, boolean reporting) {
        Objects.requireNonNull(encodedFragments, "encodedFragments");
        Recovery r = new Recovery(codec, wantedDispersalId, operation, reporting);
        List<byte[]> all = new ArrayList<>(encodedFragments);
        r.given = all.size();
        List<Pending> pending = new ArrayList<>();
        for (int p = 0; p < all.size(); p++) {
            byte[] bytes = Objects.requireNonNull(all.get(p), "encodedFragments element");
            Header h;
            try {
                h = Header.read(bytes, 0, bytes.length);
            } catch (CorruptFragmentException e) {
                r.rejections.add(new Rejection(p, -1, e.getMessage()));
                continue;
            }
            String foreign = codec.foreign(h.layout(), h.m(), h.n());
            if (foreign != null) {
                r.rejections.add(new Rejection(p, h.index(), foreign));
                continue;
            }
            byte[] named = namedId(bytes);
            if (r.wanted != null && named != null && !Arrays.equals(named, r.wanted)) {
                r.rejections.add(new Rejection(p, h.index(), "names dispersal id " + FragmentFormat.hex(named)
                        + ", not the wanted " + FragmentFormat.hex(r.wanted)));
                continue;
            }
            pending.add(new Pending(p, h.index(), named, bytes));
        }
        pending.sort(Comparator.comparingInt(Pending::index).thenComparingInt(Pending::position));
        // Verify in index order until one dispersal has m distinct fragments; a fragment whose trailer names a
        // dispersal that already has its index is a duplicate, verified later only if needed.
        List<Pending> deferred = new ArrayList<>();
        int next = 0;
        while (next < pending.size() && r.largest() < r.m) {
            Pending c = pending.get(next++);
            if (r.hasIndex(c.named, c.index)) {
                deferred.add(c);
            } else {
                r.verify(c);
            }
        }
        deferred.addAll(pending.subList(next, pending.size()));
        if (r.largest() >= r.m) {
            // Fragments naming another dispersal are verified: set aside with the reason, or, if they complete
            // another dispersal, make the choice ambiguous. Duplicates of the complete one stay unexamined.
            byte[] complete = r.sortedGroups().get(0).first.dispersalIdBytes();
            List<Pending> same = new ArrayList<>();
            for (Pending c : deferred) {
                if (c.named != null && Arrays.equals(c.named, complete)) {
                    same.add(c);
                } else {
                    r.verify(c);
                }
            }
            deferred = same;
            if (r.ambiguous()) {
                // The error will give each dispersal's count: count them all.
                deferred.forEach(r::verify);
                deferred = List.of();
            }
        } else {
            deferred.forEach(r::verify);
            deferred = List.of();
        }
        List<Pending> extras = deferred;
        return r.finish(() -> extras.forEach(r::verify));
    }

    /** A stored fragment whose header verified, not yet parsed whole. */
    private record Pending(int position, int index, byte[] named, byte[] bytes) {
    }

    /** The dispersal id a stored fragment's trailer names (not yet verified), or null if it is too short. */
    private static byte[] namedId(byte[] bytes) {
        if (bytes.length < FragmentFormat.MIN_FRAGMENT_BYTES) {
            return null;
        }
        int at = bytes.length - FragmentFormat.TRAILER_BYTES + 8;
        return Arrays.copyOfRange(bytes, at, at + FragmentFormat.HASH_BYTES);
    }

    private boolean hasIndex(byte[] named, int index) {
        if (named == null) {
            return false;
        }
        for (Group g : groups) {
            if (g.indexes.get(index) && Arrays.equals(g.first.dispersalIdBytes(), named)) {
                return true;
            }
        }
        return false;
    }

    private void verify(Pending c) {
        Fragment f;
        try {
            f = Fragment.parse(c.bytes);
        } catch (CorruptFragmentException e) {
            rejections.add(new Rejection(c.position, e.fragmentIndex(), e.getMessage()));
            return;
        }
        offer(c.position, f);
    }

    /** Files a verified fragment under its encoding, or rejects it. */
    private void offer(int position, Fragment f) {
        String foreign = codec.foreign(f.layout(), f.m(), f.n());
        if (foreign != null) {
            rejections.add(new Rejection(position, f.index(), foreign));
            return;
        }
        if (wanted != null && !MessageDigest.isEqual(f.dispersalIdBytes(), wanted)) {
            rejections.add(new Rejection(position, f.index(), "dispersal id " + f.dispersalId()
                    + " is not the wanted " + FragmentFormat.hex(wanted)));
            return;
        }
        for (Group g : groups) {
            if (g.sameEncoding(f)) {
                g.members.add(new Candidate(position, f));
                g.indexes.set(f.index());
                return;
            }
        }
        Group g = new Group(f);
        g.members.add(new Candidate(position, f));
        g.indexes.set(f.index());
        groups.add(g);
    }

    private int largest() {
        int best = 0;
        for (Group g : groups) {
            best = Math.max(best, g.distinct());
        }
        return best;
    }

    /** Whether two dispersals with different ids each have m distinct fragments. */
    private boolean ambiguous() {
        byte[] first = null;
        for (Group g : groups) {
            if (g.distinct() >= m) {
                if (first == null) {
                    first = g.first.dispersalIdBytes();
                } else if (!MessageDigest.isEqual(first, g.first.dispersalIdBytes())) {
                    return true;
                }
            }
        }
        return false;
    }

    private List<Group> sortedGroups() {
        List<Group> sorted = new ArrayList<>(groups);
        sorted.sort(Comparator.comparingInt(Group::distinct).reversed().thenComparingInt(Group::firstPosition));
        return sorted;
    }

    /**
     * The groups with {@code m} distinct fragments, most first; throws if there is none, or if they belong to
     * different dispersals and the caller named none.
     */
    private List<Group> choose() {
        List<Group> sorted = sortedGroups();
        List<Group> complete = new ArrayList<>();
        for (Group g : sorted) {
            if (g.distinct() >= m) {
                complete.add(g);
            }
        }
        if (complete.isEmpty()) {
            throw notEnough(sorted);
        }
        if (wanted == null) {
            Group first = complete.get(0);
            for (Group g : complete) {
                if (!MessageDigest.isEqual(g.first.dispersalIdBytes(), first.first.dispersalIdBytes())) {
                    throw new IllegalArgumentException("fragments of two dispersals can each be decoded: dispersal "
                            + first.first.dispersalId() + " (" + first.distinct() + " distinct fragments) and "
                            + g.first.dispersalId() + " (" + g.distinct() + "); name the one wanted with "
                            + operation + "(…, dispersalId)");
                }
            }
        }
        return complete;
    }

    private NotEnoughFragmentsException notEnough(List<Group> sorted) {
        Map<String, Integer> byDispersal = new LinkedHashMap<>();
        for (Group g : sorted) {
            byDispersal.putIfAbsent(g.first.dispersalId(), g.distinct());
        }
        int verified = 0;
        if (!sorted.isEmpty()) {
            Group largest = sorted.get(0);
            verified = largest.distinct();
            rejectOthers(largest, "the " + verified + " fragments counted");
        }
        rejections.sort(Comparator.comparingInt(Rejection::position));
        return new NotEnoughFragmentsException(given, verified, m, rejections, byDispersal);
    }

    /** Rejects every verified fragment outside {@code kept}'s encoding, naming what differs. */
    private void rejectOthers(Group kept, String role) {
        for (Group g : groups) {
            if (g != kept) {
                for (Candidate c : g.members) {
                    rejections.add(new Rejection(c.position(), c.index(), difference(c.fragment(), kept.first, role)));
                }
            }
        }
    }

    private DecodeResult finish(Runnable verifyExtras) {
        CorruptFragmentException failure = null;
        boolean extrasVerified = false;
        List<Group> tried = new ArrayList<>();
        while (true) {
            // Verifying the extras after a failure may complete another group of the same dispersal id.
            Group g = null;
            for (Group candidate : choose()) {
                if (!tried.contains(candidate)) {
                    g = candidate;
                    break;
                }
            }
            if (g == null) {
                throw failure;
            }
            tried.add(g);
            long length = g.first.dataLength();
            if (length > IdaCodec.MAX_ARRAY_BYTES) {
                throw new IllegalArgumentException("data of " + length
                        + " bytes does not fit in an array; use decode(List<InputStream>, OutputStream)");
            }
            byte[] data = new byte[(int) length];
            List<Candidate> primary = primary(g);
            if (decodeWith(g, primary, data)) {
                if (!reporting || lastStripeFits(g, data, primary)) {
                    return result(g, data, positions(primary));
                }
                if (!extrasVerified) {
                    verifyExtras.run();
                    extrasVerified = true;
                }
                rejectMisfits(g, data);
                return result(g, data, fitting(g, positions(primary)));
            }
            failure = new CorruptFragmentException(-1, "rebuilt data has SHA-256 "
                    + FragmentFormat.hex(Hashing.sha256().digest(data)) + " but the fragments' dispersal id is "
                    + g.first.dispersalId() + ": a fragment's payload was not encoded from this data");
            if (!extrasVerified) {
                verifyExtras.run();
                extrasVerified = true;
            }
            TreeSet<Integer> used = new TreeSet<>();
            String problem = search(g, data, used);
            if (problem == null) {
                rejectMisfits(g, data);
                return result(g, data, fitting(g, used));
            }
            failure = new CorruptFragmentException(-1, failure.getMessage() + "; no other choice of " + m
                    + " of its " + g.members.size() + " verified fragments does: " + problem);
        }
    }

    private DecodeResult result(Group g, byte[] data, List<Integer> used) {
        rejectOthers(g, "the fragments decoded");
        rejections.sort(Comparator.comparingInt(Rejection::position));
        return new DecodeResult(data, g.first.dispersalId(), used, rejections);
    }

    private static List<Integer> positions(List<Candidate> candidates) {
        List<Integer> out = new ArrayList<>();
        for (Candidate c : candidates) {
            out.add(c.position());
        }
        out.sort(null);
        return out;
    }

    /** The first fragment (by position) of each of the {@code m} lowest indexes. */
    private List<Candidate> primary(Group g) {
        List<Candidate> sorted = sortedMembers(g);
        return pick(sorted, firstOfEachIndex(indexes(sorted, Candidate::index), m));
    }

    private static List<Candidate> sortedMembers(Group g) {
        List<Candidate> sorted = new ArrayList<>(g.members);
        sorted.sort(Comparator.comparingInt(Candidate::index).thenComparingInt(Candidate::position));
        return sorted;
    }

    /** The fragment index of each member. */
    static <T> int[] indexes(List<T> members, ToIntFunction<T> index) {
        int[] indexOf = new int[members.size()];
        for (int i = 0; i < indexOf.length; i++) {
            indexOf[i] = index.applyAsInt(members.get(i));
        }
        return indexOf;
    }

    /**
     * Of members sorted by index ({@code indexOf[i]} is member {@code i}'s), the first member of each of the
     * {@code m} lowest indexes: the choice a decode starts from.
     */
    static int[] firstOfEachIndex(int[] indexOf, int m) {
        int[] picked = new int[m];
        int c = 0;
        BitSet seen = new BitSet();
        for (int i = 0; i < indexOf.length && c < m; i++) {
            if (!seen.get(indexOf[i])) {
                seen.set(indexOf[i]);
                picked[c++] = i;
            }
        }
        return c == m ? picked : Arrays.copyOf(picked, c);
    }

    /** The members numbered {@code chosen}, in that order. */
    static <T> List<T> pick(List<T> members, int[] chosen) {
        List<T> out = new ArrayList<>(chosen.length);
        for (int i : chosen) {
            out.add(members.get(i));
        }
        return out;
    }

    /** Decodes all of the data from one choice; returns whether it matches the dispersal id. */
    private boolean decodeWith(Group g, List<Candidate> choice, byte[] data) {
        byte[][] payloads = new byte[codec.n()][];
        for (Candidate c : choice) {
            payloads[c.index()] = c.fragment().payloadArray();
        }
        codec.decodePayloads(payloads, data, 0, data.length, g.first.stripeSizeBytes());
        return MessageDigest.isEqual(Hashing.sha256().digest(data), g.first.dispersalIdBytes());
    }

    /**
     * Decodes stripe by stripe, keeping a choice of {@code m} fragments while its stripes match their data checksums
     * and trying others when one does not; returns null on success (data matching the dispersal id), else what
     * failed.
     */
    private String search(Group g, byte[] data, TreeSet<Integer> used) {
        List<Candidate> members = sortedMembers(g);
        int[] indexOf = indexes(members, Candidate::index);
        Choices choices = new Choices(indexOf, firstOfEachIndex(indexOf, m));
        int[] current = choices.primaryChoice();
        int stripe = g.first.stripeSizeBytes();
        int stripeData = m * stripe;
        int[] dataCrcs = g.first.dataCrcs();
        CRC32C crc = new CRC32C();
        Workspace ws = codec.workspaces().take();
        try {
            for (int s = 0, base = 0; ; s++) {
                int d = Math.min(stripeData, data.length - base);
                if (!stripeMatches(ws, members, current, s * stripe, d, data, base, crc, dataCrcs[s])) {
                    int[] found = null;
                    int tried = 0;
                    for (int[] choice = choices.first(); choice != null && tried < MAX_CHOICES_PER_STRIPE;
                         choice = choices.next()) {
                        tried++;
                        if (stripeMatches(ws, members, choice, s * stripe, d, data, base, crc, dataCrcs[s])) {
                            found = choice.clone();
                            break;
                        }
                    }
                    if (found == null) {
                        return "stripe " + s + " matches its data checksum with none of the " + tried
                                + " choices tried" + (tried == MAX_CHOICES_PER_STRIPE ? " (the most tried per stripe)"
                                : "");
                    }
                    current = found;
                }
                for (int i : current) {
                    used.add(members.get(i).position());
                }
                base += d;
                if (d < stripeData) {
                    break;
                }
            }
        } finally {
            codec.workspaces().give(ws);
        }
        byte[] actual = Hashing.sha256().digest(data);
        return MessageDigest.isEqual(actual, g.first.dispersalIdBytes()) ? null
                : "every stripe matches its checksum but the data has SHA-256 " + FragmentFormat.hex(actual);
    }

    private boolean stripeMatches(Workspace ws, List<Candidate> members, int[] choice, int cellOffset, int d,
                                  byte[] data, int base, CRC32C crc, int expected) {
        byte[][] cells = new byte[codec.n()][];
        for (int i : choice) {
            cells[members.get(i).index()] = members.get(i).fragment().payloadArray();
        }
        codec.decodeStripe(ws, codec.plan(cells), cells, cellOffset, d, data, base);
        return FragmentFormat.dataCrc(crc, data, base, d) == expected;
    }

    /**
     * Whether every fragment of {@code read}, which rebuilt {@code data} (matching its dispersal id), is the fragment
     * of its index that the data encodes to. Only the last stripe needs a look: in every other stripe each cell read
     * holds data, so a cell that differed would have changed the data. The last stripe's cells may end in padding
     * (when its data does not divide by {@code m}), and a cell that differs where the choice read only padding
     * leaves the data as it was: a fragment relabelled with an index whose data-carrying cells it happens to match.
     */
    private boolean lastStripeFits(Group g, byte[] data, List<Candidate> read) {
        int stripe = g.first.stripeSizeBytes();
        int stripeData = m * stripe;
        int lastStripe = data.length / stripeData;
        int base = lastStripe * stripeData;
        int d = data.length - base;
        if (d % m == 0) {
            return true;
        }
        IdaCodec coder = codec.withStripeSizeBytes(stripe);
        int cell = (int) coder.payloadLength(d);
        byte[][] expected = new byte[codec.n()][cell];
        coder.encodePayloads(data, base, d, expected);
        int at = lastStripe * stripe;
        for (Candidate c : read) {
            if (!Arrays.equals(c.fragment().payloadArray(), at, at + cell, expected[c.index()], 0, cell)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The positions to report as used, once the misfits are set aside: those of {@code read} that fit, and if they
     * no longer have {@code m} distinct indexes, fitting members of other indexes standing in for the misfits (any
     * {@code m} fragments that fit rebuild the same data).
     */
    private List<Integer> fitting(Group g, Collection<Integer> read) {
        TreeSet<Integer> used = new TreeSet<>();
        BitSet indexes = new BitSet();
        for (Candidate c : g.members) {
            if (read.contains(c.position())) {
                used.add(c.position());
                indexes.set(c.index());
            }
        }
        for (Candidate c : sortedMembers(g)) {
            if (indexes.cardinality() >= m) {
                break;
            }
            if (!indexes.get(c.index())) {
                used.add(c.position());
                indexes.set(c.index());
            }
        }
        return new ArrayList<>(used);
    }

    /** After a search: the verified fragments whose payload is not the one the rebuilt data gives their index. */
    private void rejectMisfits(Group g, byte[] data) {
        IdaCodec coder = codec.withStripeSizeBytes(g.first.stripeSizeBytes());
        byte[][] expected = new byte[codec.n()][(int) coder.payloadLength(data.length)];
        coder.encodePayloads(data, 0, data.length, expected);
        List<Candidate> misfits = new ArrayList<>();
        for (Candidate c : g.members) {
            if (!Arrays.equals(c.fragment().payloadArray(), expected[c.index()])) {
                misfits.add(c);
                rejections.add(new Rejection(c.position(), c.index(), "verifies on its own but its payload is not"
                        + " fragment " + c.index() + " of the data rebuilt: relabelled with another index, or altered"
                        + " with its checksums recomputed"));
            }
        }
        g.members.removeAll(misfits);
    }

    /**
     * Choices of {@code m} members with distinct fragment indexes, by how many members of the primary choice they
     * replace: one, then two, and so on. Members are numbered from 0; {@code indexOf[i]} is member {@code i}'s
     * fragment index.
     */
    static final class Choices {
        private final int[] indexOf;
        private final int m;
        private final int[] primary;
        private final int[] extras;
        private int replaced;
        private int[] drop;
        private int[] add;
        private final int[] choice;

        Choices(int[] indexOf, int[] primary) {
            this.indexOf = indexOf;
            this.m = primary.length;
            this.primary = primary.clone();
            int[] others = new int[indexOf.length - primary.length];
            int e = 0;
            for (int i = 0; i < indexOf.length; i++) {
                if (!contains(primary, i)) {
                    others[e++] = i;
                }
            }
            this.extras = others;
            this.choice = new int[m];
        }

        int[] primaryChoice() {
            return primary.clone();
        }

        int[] first() {
            replaced = 0;
            drop = null;
            add = null;
            return next();
        }

        /** The next choice with distinct indexes, or null when every choice has been given. */
        int[] next() {
            while (true) {
                if (drop == null || !advance()) {
                    replaced++;
                    if (replaced > Math.min(m, extras.length)) {
                        return null;
                    }
                    drop = identity(replaced);
                    add = identity(replaced);
                }
                if (fill()) {
                    return choice;
                }
            }
        }

        /** Moves to the next (drop, add) pair of combinations; false when both are exhausted. */
        private boolean advance() {
            if (nextCombination(add, extras.length)) {
                return true;
            }
            if (nextCombination(drop, m)) {
                add = identity(replaced);
                return true;
            }
            return false;
        }

        /** Builds the choice; false if two of its members share an index. */
        private boolean fill() {
            int c = 0;
            int d = 0;
            for (int t = 0; t < m; t++) {
                if (d < drop.length && drop[d] == t) {
                    d++;
                } else {
                    choice[c++] = primary[t];
                }
            }
            for (int a : add) {
                choice[c++] = extras[a];
            }
            BitSet seen = new BitSet();
            for (int i : choice) {
                int index = indexOf[i];
                if (seen.get(index)) {
                    return false;
                }
                seen.set(index);
            }
            return true;
        }

        private static int[] identity(int size) {
            int[] c = new int[size];
            for (int i = 0; i < size; i++) {
                c[i] = i;
            }
            return c;
        }

        /** Advances a strictly increasing combination of {@code [0, n)}; false when it was the last. */
        static boolean nextCombination(int[] c, int n) {
            int r = c.length;
            for (int i = r - 1; i >= 0; i--) {
                if (c[i] < n - r + i) {
                    c[i]++;
                    for (int j = i + 1; j < r; j++) {
                        c[j] = c[j - 1] + 1;
                    }
                    return true;
                }
            }
            return false;
        }

        private static boolean contains(int[] a, int v) {
            for (int x : a) {
                if (x == v) {
                    return true;
                }
            }
            return false;
        }
    }
}
