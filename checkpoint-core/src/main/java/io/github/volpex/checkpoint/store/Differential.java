package io.github.volpex.checkpoint.store;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

/**
 * Differential checkpoints (see the package documentation): cutting a state into blocks, choosing which to store and
 * which to refer to in the base's segments, compacting, and rebuilding a state from its segments.
 */
final class Differential {

    /** The most segments a manifest lists besides the checkpoint's own: bounds the reads of a recovery. */
    static final int MAX_SEGMENTS = 64;

    private final StoreContext context;
    private final Reads reads;
    private final Chunking chunking;
    /** The most block bytes a commit keeps stored per live block byte: the compaction bound. */
    private final double maxSpaceAmplification;
    /**
     * The most bytes a recovery holds in one array ({@link CheckpointStore#MAX_ARRAY_BYTES}, lowered by tests): the
     * state it assembles and the payload of new blocks and manifest it rebuilds first.
     */
    private final long maxArrayBytes;

    Differential(StoreContext context, Reads reads, Chunking chunking, double maxSpaceAmplification,
                 long maxArrayBytes) {
        this.maxArrayBytes = maxArrayBytes;
        this.context = context;
        this.reads = reads;
        this.chunking = chunking;
        this.maxSpaceAmplification = maxSpaceAmplification;
    }

    /** Whether commits are differential: a chunking was configured. */
    boolean enabled() {
        return chunking != null;
    }

    /**
     * Rebuilds the state that {@code index} describes: the decoded payload of a full checkpoint, or a differential
     * one assembled from its segments.
     */
    RecoveredCheckpoint rebuild(FragmentIndex index, JobView view) {
        return rebuild(index, view, null);
    }

    /**
     * As {@link #rebuild(FragmentIndex, JobView)}; the manifest of a differential checkpoint rebuilt is remembered in
     * {@code state} unless it is null.
     */
    RecoveredCheckpoint rebuild(FragmentIndex index, JobView view, JobState state) {
        return index.isDifferential() ? assemble(index, view, state) : reads.rebuild(index);
    }

    /**
     * The checkpoint a commit refers to: the job's newest committed one, and its manifest; {@code whole} tells, for
     * each of its segments (0 its own, then those its manifest lists), whether all {@code n} of its fragments were
     * listed where its index records them (see {@link #whole}).
     */
    record Base(FragmentIndex index, Manifest manifest, boolean[] whole, FragmentIndex[] segmentIndices) {
    }

    /** What a differential commit writes: its manifest, and the runs of the state that are its own blocks. */
    static final class Plan {
        final Manifest manifest;
        final byte[] manifestBytes;
        final int[] runFrom;
        final int[] runLength;
        final int runs;

        Plan(Manifest manifest, int[] runFrom, int[] runLength, int runs) {
            this.manifest = manifest;
            this.manifestBytes = manifest.toBytes();
            this.runFrom = runFrom;
            this.runLength = runLength;
            this.runs = runs;
        }

        /** The payload's length: own blocks, manifest, and the manifest's length. */
        long payloadBytes() {
            return manifest.ownBlockBytes + manifestBytes.length + 4L;
        }

        /** The payload, streamed from the state's array without copying it. */
        InputStream payload(byte[] state) {
            List<InputStream> parts = new ArrayList<>(runs + 2);
            for (int r = 0; r < runs; r++) {
                parts.add(new ByteArrayInputStream(state, runFrom[r], runLength[r]));
            }
            parts.add(new ByteArrayInputStream(manifestBytes));
            parts.add(new ByteArrayInputStream(ByteBuffer.allocate(4).putInt(manifestBytes.length).array()));
            return new SequenceInputStream(Collections.enumeration(parts));
        }
    }

    /**
     * Refuses a differential checkpoint that a recovery could not rebuild: one whose state or whose payload (the
     * blocks stored in its own segment, its block manifest and the manifest's length, which a recovery rebuilds in
     * one array before it assembles the state in another) is longer than {@code maxArrayBytes}.
     *
     * @throws IllegalArgumentException naming the sizes and the bound
     */
    static void requireRecoverable(long stateBytes, long payloadBytes, long maxArrayBytes) {
        if (stateBytes > maxArrayBytes || payloadBytes > maxArrayBytes) {
            throw new IllegalArgumentException("checkpoint: a differential checkpoint of a state of " + stateBytes
                    + " bytes stores a payload (its new blocks and a block manifest of 48 bytes per block) of "
                    + payloadBytes + " bytes; a recovery holds each in one array of at most " + maxArrayBytes
                    + " bytes, so it could not be recovered and is not committed (use larger blocks, or a store "
                    + "without differential)");
        }
    }

    static Set<CheckpointId> segments(Manifest manifest) {
        Set<CheckpointId> ids = new LinkedHashSet<>();
        manifest.segments.forEach(segment -> ids.add(segment.id()));
        return ids;
    }

    /**
     * The base of a commit: the newest committed checkpoint of {@code view}, with its manifest — remembered when this
     * store committed, recovered or repaired that checkpoint last (see {@link JobState#manifestOf}), read back
     * otherwise. Null when there is none, it is a full checkpoint, or its manifest cannot be read: the commit then
     * stores every block.
     */
    Base base(String jobId, JobState state, JobView view) {
        JobView.Trace newest = view.newestCommitted().orElse(null);
        if (newest == null) {
            return null;
        }
        FragmentIndex index;
        Manifest manifest = state.manifestOf(newest.id);
        if (manifest != null) {
            index = state.manifestOf;
        } else {
            try {
                index = context.readIndex(jobId, newest, new ArrayList<>()).orElse(null);
                if (index == null || !index.isDifferential()) {
                    return null;
                }
                manifest = Manifest.ofPayload(reads.rebuild(index).bytes());
            } catch (CheckpointStoreException | CorruptIndexException | IllegalStateException e) {
                return null;
            }
            state.learnt(index, manifest);
        }
        FragmentIndex[] indices = new FragmentIndex[manifest.segments.size() + 1];
        boolean[] whole = whole(jobId, state, view, index, manifest, indices);
        return new Base(index, manifest, whole, indices);
    }

    /**
     * Checks again, under a listing taken now, that the segments of {@code base} the commit found whole when it
     * started still are — they may have lost fragments (deleted, or their repository gone) while the commit read its
     * stream or uploaded its fragments — by {@link #whole} under the new listing. Each that is no longer whole is
     * marked so in {@code base} for the rest of the commit (a segment is never marked whole again: the check lists
     * once more at most as often as segments drop out, and a segment not whole at the start stays unreferred), and
     * the index the check used replaces the one the commit holds, so that a read back follows fragments a repair
     * moved. Costs one listing of the job (one request per repository), and the reads of indices that
     * {@link #whole} makes.
     *
     * @return the segments that were whole and are no longer, empty when none or when {@code base} is null
     */
    Set<CheckpointId> recheck(String jobId, JobState state, Base base) {
        if (base == null) {
            return Set.of();
        }
        FragmentIndex[] indices = new FragmentIndex[base.whole().length];
        boolean[] now = whole(jobId, state, context.view(jobId), base.index(), base.manifest(), indices);
        Set<CheckpointId> lost = new LinkedHashSet<>();
        for (int s = 0; s < now.length; s++) {
            if (indices[s] != null) {
                base.segmentIndices()[s] = indices[s];
            }
            if (base.whole()[s] && !now[s]) {
                base.whole()[s] = false;
                lost.add(s == 0 ? base.index().checkpointId() : base.manifest().segments.get(s - 1).id());
            }
        }
        return lost;
    }

    /**
     * Which segments of a base are whole: for each (0 the base's own, then those its manifest lists), whether every
     * one of its {@code n} fragments is listed, in the view given (the listing the commit took when it started, or
     * the one {@link #recheck} took later), by the repository its index records. The check lists nothing itself and
     * downloads no fragment:
     * a fragment present but damaged is not seen here (recovery finds it by its CRC-32C and digest and counts it among
     * the {@code n − m} losses the checkpoint tolerates). A segment's index comes from {@code state}'s cache of the
     * indices of the segments its last commit referred to or its repairs revised; an index not cached is read from
     * its copies, and so is one when the listing shows one of the segment's fragments where that index does not
     * record it (a repair elsewhere may have moved fragments and revised the index — whether or not the segment looks
     * whole under the cached one: a fragment left behind by a repair while its repository was away looks like the
     * fragment the cached index records there), unless the index was read under this very listing. A segment that
     * only lost fragments is not whole under any revision, so its index is not read again. A segment that is not
     * listed or whose index cannot be read is not whole. The cache then keeps the indices of this base's segments
     * only; {@code segmentIndices} receives, for each segment found, the index the check used (a commit from a
     * stream reads back through it the segments its compaction drops).
     */
    private boolean[] whole(String jobId, JobState state, JobView view, FragmentIndex index, Manifest manifest,
                            FragmentIndex[] segmentIndices) {
        boolean[] whole = new boolean[manifest.segments.size() + 1];
        Map<CheckpointId, FragmentIndex> indices = new HashMap<>();
        Map<CheckpointId, Map<String, Set<Integer>>> listings = new HashMap<>();
        for (int s = 0; s < whole.length; s++) {
            CheckpointId id = s == 0 ? index.checkpointId() : manifest.segments.get(s - 1).id();
            JobView.Trace trace = view.traces.get(id);
            if (trace == null) {
                continue;
            }
            // The newest revision known here: the base's own index may also be cached, from an earlier check.
            FragmentIndex cached = state.segmentIndices.get(id);
            if (s == 0 && cached != null && cached.revision() <= index.revision()) {
                cached = null;
            }
            FragmentIndex known = cached != null ? cached : s == 0 ? index : null;
            Map<String, Set<Integer>> readUnder = cached != null ? state.segmentListings.get(id) : null;
            if (known == null || listedElsewhere(known, trace) && !trace.fragments.equals(readUnder)) {
                try {
                    known = context.readIndex(jobId, trace, new ArrayList<>()).orElse(null);
                    readUnder = trace.fragments;
                } catch (CheckpointStoreException | CorruptIndexException | IllegalStateException e) {
                    known = null;
                }
            }
            if (known != null && known.checkpointId().equals(id)) {
                indices.put(id, known);
                if (readUnder != null) {
                    listings.put(id, readUnder);
                }
                whole[s] = listedWhole(known, trace);
                segmentIndices[s] = known;
            }
        }
        state.segmentIndices.clear();
        state.segmentIndices.putAll(indices);
        state.segmentListings.clear();
        state.segmentListings.putAll(listings);
        return whole;
    }

    /**
     * Whether the listing shows a fragment of {@code index}'s checkpoint on a repository that {@code index} does not
     * record for it: only then can another revision of the index (a repair moved fragments) list the segment whole
     * where {@code index} does not — a revision whose fragments are all listed where {@code index} records them is
     * {@code index}'s own locations.
     */
    private static boolean listedElsewhere(FragmentIndex index, JobView.Trace trace) {
        Map<Integer, String> recorded = new HashMap<>();
        for (FragmentLocation location : index.fragments()) {
            recorded.put(location.fragmentIndex(), location.repositoryId());
        }
        for (Map.Entry<String, Set<Integer>> listed : trace.fragments.entrySet()) {
            for (int fragment : listed.getValue()) {
                if (!listed.getKey().equals(recorded.get(fragment))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether each fragment of {@code index} is listed by the repository its index records. */
    private static boolean listedWhole(FragmentIndex index, JobView.Trace trace) {
        for (FragmentLocation location : index.fragments()) {
            Set<Integer> listed = trace.fragments.get(location.repositoryId());
            if (listed == null || !listed.contains(location.fragmentIndex())) {
                return false;
            }
        }
        return index.fragments().size() == index.n();
    }

    /**
     * Cuts {@code state} into blocks and decides, block by block, whether to refer to the base's copy or to store it
     * in the new segment; the segments it stops referring to are chosen by {@link #keptSegments} (compaction), and
     * their live blocks are stored again from {@code state}.
     */
    Plan plan(byte[] state, Base base) {
        Chunker chunker = chunking.chunker();
        Blocks blocks = new Blocks(base, state.length / Math.max(1, chunking.minBytes()) + 2);
        Runs runs = new Runs();
        long[] position = new long[Math.min(1024, state.length / Math.max(1, chunking.minBytes()) + 2)];
        for (int start = 0; start < state.length; ) {
            int end = chunker.end(state, start, state.length);
            if (blocks.count == position.length) {
                position = Arrays.copyOf(position, (int) Math.min(Integer.MAX_VALUE - 16, position.length * 2L));
            }
            position[blocks.count] = start;
            if (blocks.add(state, start, end - start)) {
                runs.add(start, end - start);
            }
            start = end;
        }
        Blocks.Moves moves = blocks.compact(maxSpaceAmplification);
        for (int b = 0; b < moves.count(); b++) {
            runs.add((int) position[moves.firstBlock(b)], moves.length(b));
        }
        return new Plan(blocks.manifest(), runs.from, runs.length, runs.count);
    }

    /**
     * The payload of a differential commit of the state read from {@code in}, produced as the commit reads it (see
     * {@link StreamedPlan}): the same table of blocks, compaction and manifest as {@link #plan}, with the live blocks
     * of the segments compaction drops read back from the repositories, since the stream cannot be read again.
     */
    StreamedPlan stream(InputStream in, String jobId, JobState state, Base base) {
        Blocks blocks = new Blocks(base, Long.MAX_VALUE);
        return new StreamedPlan(context, reads, base, blocks, chunking, maxSpaceAmplification, in, () -> {
            // A state that refers to no block of the base needs no segment of it whole: nothing to list again.
            return blocks.refersToBase() && !recheck(jobId, state, base).isEmpty();
        });
    }

    /** Runs of an array to store one after another, adjacent ones merged. */
    private static final class Runs {
        int[] from = new int[16];
        int[] length = new int[16];
        int count;

        void add(int at, int bytes) {
            if (count > 0 && from[count - 1] + length[count - 1] == at) {
                length[count - 1] += bytes;
                return;
            }
            if (count == from.length) {
                from = Arrays.copyOf(from, count * 2);
                length = Arrays.copyOf(length, count * 2);
            }
            from[count] = at;
            length[count] = bytes;
            count++;
        }
    }

    /**
     * The one table of a differential commit, whether it reads its state from an array or from a stream: the blocks
     * of the state as they are cut, in order — each referred to in a segment of the base or given its place in the
     * new segment — and the live bytes of each base segment. A block is looked up in the base's segments that are
     * whole only (see {@link #whole}); a block of another one is new to the commit. Once the state has ended,
     * {@link #compact} decides which base segments stay referred to and gives the live blocks of the others their
     * places in the new segment, after the new blocks; {@link #manifest} then describes the checkpoint.
     */
    final class Blocks {
        private final Manifest bm;
        private final List<Manifest.Segment> baseSegments = new ArrayList<>();
        private final boolean[] whole;
        private final Map<Manifest.BlockHash, Integer> known;
        private final long[] live;
        private final boolean[] counted;
        private final Map<Manifest.BlockHash, Long> ownAt = new HashMap<>();
        private final int capacity;
        private final MessageDigest state = Sha256.newDigest();
        private final MessageDigest block = Sha256.newDigest();
        /** The blocks cut so far. */
        int count;
        private int[] length;
        private byte[] hashes;
        /** The base block a block refers to, or -1 when it is in the new segment. */
        private int[] baseRef;
        /** A block's offset in the new segment when {@code baseRef} is -1. */
        private long[] offset;
        private long stateBytes;
        /** The block bytes of the new segment so far. */
        private long ownBytes;
        private boolean[] kept;

        /** A table for a state of at most {@code capacity} blocks (a bound, not an allocation). */
        Blocks(Base base, long capacity) {
            this.capacity = (int) Math.min(capacity, (CheckpointStore.MAX_ARRAY_BYTES - 64L) / Sha256.LENGTH_BYTES);
            int initial = Math.min(this.capacity, 1024);
            length = new int[initial];
            hashes = new byte[initial * Sha256.LENGTH_BYTES];
            baseRef = new int[initial];
            offset = new long[initial];
            bm = base == null ? null : base.manifest();
            if (base == null) {
                whole = new boolean[0];
                known = Map.of();
                live = new long[0];
                counted = new boolean[0];
                return;
            }
            baseSegments.add(new Manifest.Segment(base.index().checkpointId(), base.index().checkpointBytes(),
                    base.index().checkpointSha256(), bm.ownBlockBytes));
            baseSegments.addAll(bm.segments);
            whole = base.whole();
            known = new HashMap<>(bm.blocks * 2);
            for (int i = 0; i < bm.blocks; i++) {
                if (whole[bm.segmentOf[i]]) {
                    known.putIfAbsent(bm.hash(i), i);
                }
            }
            live = new long[baseSegments.size()];
            counted = new boolean[bm.blocks];
        }

        /** Whether a block added so far refers to a block of the base. */
        boolean refersToBase() {
            for (long bytes : live) {
                if (bytes > 0) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Adds the next block of the state, {@code data[from, from + bytes)}: hashes it, and refers to the base's
         * copy or gives it a place in the new segment. Returns whether its bytes are to be stored now, after the new
         * blocks before it: false when the base holds it, or the new segment does already.
         *
         * @throws IllegalArgumentException if the state, or the payload so far (its blocks and manifest), outgrows
         *                                  what a recovery can hold in an array ({@link #requireRecoverable}), or the
         *                                  table outgrows its capacity
         */
        boolean add(byte[] data, int from, int bytes) {
            if (count == capacity) {
                throw new IllegalArgumentException("checkpoint: a differential checkpoint holds at most " + capacity
                        + " blocks (its manifest is held in an array), the stream gave more");
            }
            boolean stored = place(data, from, bytes);
            // The state and the payload so far only grow: a stream is refused as soon as either outgrows the bound.
            requireRecoverable(stateBytes, ownBytes + Manifest.encodedBytes(0, count) + 4, maxArrayBytes);
            return stored;
        }

        private boolean place(byte[] data, int from, int bytes) {
            if (count == length.length) {
                int grown = (int) Math.min(capacity, count * 2L);
                length = Arrays.copyOf(length, grown);
                hashes = Arrays.copyOf(hashes, grown * Sha256.LENGTH_BYTES);
                baseRef = Arrays.copyOf(baseRef, grown);
                offset = Arrays.copyOf(offset, grown);
            }
            int i = count++;
            stateBytes += bytes;
            state.update(data, from, bytes);
            block.update(data, from, bytes);
            try {
                block.digest(hashes, i * Sha256.LENGTH_BYTES, Sha256.LENGTH_BYTES);
            } catch (DigestException e) {
                throw new IllegalStateException("SHA-256 failed", e);
            }
            length[i] = bytes;
            Manifest.BlockHash hash = Manifest.BlockHash.of(hashes, i * Sha256.LENGTH_BYTES);
            Integer j = known.get(hash);
            if (j != null) {
                baseRef[i] = j;
                if (!counted[j]) {
                    counted[j] = true;
                    live[bm.segmentOf[j]] += bm.length[j];
                }
                return false;
            }
            baseRef[i] = -1;
            Long at = ownAt.putIfAbsent(hash, ownBytes);
            if (at != null) {
                offset[i] = at;
                return false;
            }
            offset[i] = ownBytes;
            ownBytes += bytes;
            return true;
        }

        /**
         * The base blocks whose segments a compaction drops, each once, in order of segment and offset there — the
         * order in which a stream commit reads them back — with their places in the new segment, one after another
         * after the new blocks.
         */
        final class Moves {
            private final int[] base;
            private final int[] first;

            private Moves(int[] base, int[] first) {
                this.base = base;
                this.first = first;
            }

            int count() {
                return base.length;
            }

            /** The block of the state that first refers to the {@code b}-th move. */
            int firstBlock(int b) {
                return first[b];
            }

            int length(int b) {
                return bm.length[base[b]];
            }

            /** Which of the base's segments holds it: 0 the base's own, then those its manifest lists. */
            int segment(int b) {
                return bm.segmentOf[base[b]];
            }

            /** Its offset in that segment's payload. */
            long offset(int b) {
                return bm.offset[base[b]];
            }

            /** Whether {@code digest} is the SHA-256 the base's manifest records for it. */
            boolean matches(int b, byte[] digest) {
                int from = base[b] * Sha256.LENGTH_BYTES;
                return Arrays.equals(digest, 0, Sha256.LENGTH_BYTES, bm.hashes, from, from + Sha256.LENGTH_BYTES);
            }
        }

        /**
         * Decides which base segments stay referred to ({@link #keptSegments}, with every byte of the state known)
         * and gives each block of a dropped segment its place in the new segment, after the new blocks.
         *
         * @throws IllegalArgumentException if the payload would then be longer than a recovery can hold
         *                                  ({@link #requireRecoverable})
         */
        Moves compact(double amplification) {
            if (bm == null) {
                kept = new boolean[0];
                return new Moves(new int[0], new int[0]);
            }
            kept = keptSegments(baseSegments, live, whole, ownBytes, amplification);
            Moves moves = moveDropped();
            requireRecoverablePayload();
            return moves;
        }

        /**
         * After {@link #compact}: drops, besides, each kept segment that is no longer whole ({@link #recheck} found
         * it lost fragments since), and gives the blocks of those their places in the new segment after every block
         * placed before; the moves of the earlier compaction stand.
         */
        Moves dropNoLongerWhole() {
            if (bm == null) {
                return new Moves(new int[0], new int[0]);
            }
            for (int s = 0; s < kept.length; s++) {
                kept[s] &= whole[s];
            }
            Moves moves = moveDropped();
            requireRecoverablePayload();
            return moves;
        }

        /**
         * Refuses, as soon as the compaction has decided (before any block is read back), a payload longer than a
         * recovery can hold: the blocks it stores and the manifest.
         */
        private void requireRecoverablePayload() {
            int keptCount = 0;
            for (boolean k : kept) {
                keptCount += k ? 1 : 0;
            }
            requireRecoverable(stateBytes, ownBytes + Manifest.encodedBytes(keptCount, count) + 4, maxArrayBytes);
        }

        /** Moves the blocks still referred to in segments not {@link #kept} into the new segment. */
        private Moves moveDropped() {
            int[] first = new int[bm.blocks];
            Arrays.fill(first, -1);
            int moved = 0;
            for (int i = 0; i < count; i++) {
                int j = baseRef[i];
                if (j >= 0 && !kept[bm.segmentOf[j]] && first[j] < 0) {
                    first[j] = i;
                    moved++;
                }
            }
            Integer[] order = new Integer[moved];
            for (int j = 0, b = 0; j < bm.blocks; j++) {
                if (first[j] >= 0) {
                    order[b++] = j;
                }
            }
            Arrays.sort(order, Comparator.comparingInt((Integer j) -> bm.segmentOf[j])
                    .thenComparingLong(j -> bm.offset[j]));
            int[] base = new int[moved];
            int[] firstBlock = new int[moved];
            long[] placed = new long[bm.blocks];
            for (int b = 0; b < moved; b++) {
                base[b] = order[b];
                firstBlock[b] = first[order[b]];
                placed[order[b]] = ownBytes;
                ownBytes += bm.length[order[b]];
            }
            for (int i = 0; i < count; i++) {
                int j = baseRef[i];
                if (j >= 0 && !kept[bm.segmentOf[j]]) {
                    baseRef[i] = -1;
                    offset[i] = placed[j];
                }
            }
            return new Moves(base, firstBlock);
        }

        /**
         * The checkpoint's block manifest; after {@link #compact}.
         *
         * @throws IllegalArgumentException if the payload it ends would be longer than a recovery can hold
         *                                  ({@link #requireRecoverable})
         */
        Manifest manifest() {
            requireRecoverablePayload();
            int[] ordinal = new int[baseSegments.size()];
            List<Manifest.Segment> segments = new ArrayList<>();
            for (int s = 0; s < baseSegments.size(); s++) {
                if (kept[s]) {
                    segments.add(baseSegments.get(s));
                    ordinal[s] = segments.size();
                }
            }
            int[] segmentOf = new int[count];
            long[] at = new long[count];
            for (int i = 0; i < count; i++) {
                int j = baseRef[i];
                segmentOf[i] = j >= 0 ? ordinal[bm.segmentOf[j]] : 0;
                at[i] = j >= 0 ? bm.offset[j] : offset[i];
            }
            return new Manifest(chunking.code(), chunking.blockBytes(), stateBytes, Sha256.wrap(state.digest()),
                    ownBytes, segments, count, segmentOf, at, Arrays.copyOf(length, count),
                    Arrays.copyOf(hashes, count * Sha256.LENGTH_BYTES));
        }
    }

    /**
     * The base segments still referred to. Those with no live block are dropped, and so are those that are not
     * {@code whole} (their live blocks are stored again in the new segment, from the state the commit was given: a
     * committed checkpoint refers only to segments that had all {@code n} fragments when it was committed); of the
     * others, the
     * {@link #MAX_SEGMENTS} with the most live bytes are kept; then, while the block bytes stored — the kept segments'
     * and the new segment's — exceed {@code amplification} times the live bytes, the kept segment with the smallest
     * share of live bytes is dropped (its live blocks move to the new segment), as a log-structured file system
     * cleans its emptiest segments first (Rosenblum and Ousterhout, SOSP '91). Each drop lowers the stored bytes and
     * leaves the live ones; with every segment dropped they are equal, so with {@code amplification ≥ 1} the loop
     * ends with stored ≤ amplification × live.
     */
    private static boolean[] keptSegments(List<Manifest.Segment> segments, long[] live, boolean[] whole,
                                          long freshBytes, double amplification) {
        List<Integer> candidates = new ArrayList<>();
        long own = freshBytes;
        for (int s = 0; s < segments.size(); s++) {
            if (live[s] > 0 && whole[s]) {
                candidates.add(s);
            } else {
                own += live[s];
            }
        }
        candidates.sort(Comparator.comparingLong((Integer s) -> -live[s]));
        for (int c = MAX_SEGMENTS; c < candidates.size(); c++) {
            own += live[candidates.get(c)];
        }
        List<Integer> kept = new ArrayList<>(candidates.subList(0, Math.min(MAX_SEGMENTS, candidates.size())));
        long liveBytes = own;
        long stored = own;
        for (int s : kept) {
            liveBytes += live[s];
            stored += segments.get(s).blockBytes();
        }
        // Least live share first: live[a] / bytes[a] < live[b] / bytes[b], compared without division.
        kept.sort((a, b) -> Long.compare(live[a] * segments.get(b).blockBytes(),
                live[b] * segments.get(a).blockBytes()));
        int next = 0;
        while (stored > amplification * liveBytes && next < kept.size()) {
            int s = kept.get(next++);
            stored -= segments.get(s).blockBytes() - live[s];
        }
        boolean[] keep = new boolean[segments.size()];
        for (int c = next; c < kept.size(); c++) {
            keep[kept.get(c)] = true;
        }
        return keep;
    }


    /**
     * Rebuilds the state of the differential checkpoint {@code index}. Its own payload is rebuilt and checked
     * against the digest its index records, which covers the manifest and the blocks stored there; each other
     * segment the manifest lists (found in {@code view}, its index checked against the length and digest the
     * manifest records) is read by {@link #copyBlocks}, which decodes only the stripes holding blocks of the state
     * and checks every block it copies against the SHA-256 the manifest records. A state made of blocks that each
     * match their digest, in the manifest's order, is the state the manifest names, so it is not hashed again.
     */
    RecoveredCheckpoint assemble(FragmentIndex index, JobView view) {
        return assemble(index, view, null);
    }

    /**
     * As {@link #assemble(FragmentIndex, JobView)}; once the state is rebuilt, its manifest is remembered in
     * {@code state} unless it is null.
     */
    RecoveredCheckpoint assemble(FragmentIndex index, JobView view, JobState jobState) {
        String jobId = index.jobId();
        byte[] own = reads.rebuild(index).bytes();
        Manifest manifest = Manifest.ofPayload(own);
        if (manifest.stateBytes > CheckpointStore.MAX_ARRAY_BYTES) {
            throw new IllegalStateException("checkpoint " + jobId + " #" + index.sequence() + " of "
                    + manifest.stateBytes + " bytes does not fit in an array");
        }
        byte[] state = new byte[(int) manifest.stateBytes];
        long[] position = new long[manifest.blocks];
        long at = 0;
        for (int i = 0; i < manifest.blocks; i++) {
            position[i] = at;
            at += manifest.length[i];
        }
        int[][] bySegment = blocksBySegment(manifest);
        for (int i : bySegment[0]) {
            System.arraycopy(own, (int) manifest.offset[i], state, (int) position[i], manifest.length[i]);
        }
        own = null;
        copySegments(index, view, manifest, bySegment, position, state);
        if (jobState != null) {
            jobState.learnt(index, manifest);
        }
        return new RecoveredCheckpoint(index, state);
    }

    /**
     * Copies the blocks of every segment the manifest lists into {@code state}, the segments read on the executor
     * at once: each segment's task reads its index, fetches its fragments and copies its blocks, which no other
     * segment supplies, so the tasks write disjoint ranges of {@code state}. Besides the one awaited and the next,
     * a segment is started only while fewer than {@code n} are running and the payloads of the segments started and
     * not yet awaited fit in the state's length. A task the executor has not started is run by the waiting thread
     * ({@link Parallel}), so an executor of any size will do. The first segment (in the manifest's order) that cannot
     * be read fails the recovery, as it would if they were read one after the other: once a segment has failed, no
     * later one is started and the later ones not yet started, or not yet re-reading a damaged segment, stop there;
     * those running are waited for, so that no segment task outlives the call (the fetches beyond the first {@code m}
     * that verify, which {@code extraFetches} asks for, may), and an {@link Error} of one of them is thrown before any
     * other failure. A failure is therefore reported only once the segments running beside it have ended.
     */
    private void copySegments(FragmentIndex index, JobView view, Manifest manifest, int[][] bySegment,
                              long[] position, byte[] state) {
        int count = manifest.segments.size();
        long window = Math.max(1, manifest.stateBytes);
        int running = Math.max(2, index.n());
        AtomicInteger firstFailed = new AtomicInteger(Integer.MAX_VALUE);
        List<Parallel.Task<Void>> started = new ArrayList<>(count);
        long ahead = 0;
        Throwable failure = null;
        try {
            for (int s = 1; s <= count && failure == null; s++) {
                while (started.size() < count) {
                    int segment = started.size() + 1;
                    long payload = manifest.segments.get(segment - 1).payloadBytes();
                    // The one awaited; then, unless an earlier one failed, the next, and more within both bounds.
                    if (segment > s && (firstFailed.get() <= segment
                            || segment > s + 1 && (segment - s >= running || ahead + payload > window))) {
                        break;
                    }
                    ahead += payload;
                    started.add(Parallel.start(context.executor, () -> {
                        copySegment(index, view, manifest, segment, bySegment[segment], position, state,
                                firstFailed);
                        return null;
                    }));
                }
                Parallel.Outcome<Void> outcome = Parallel.await(started.get(s - 1));
                ahead -= manifest.segments.get(s - 1).payloadBytes();
                failure = outcome.failure();
            }
        } catch (RuntimeException | Error e) {
            // Not a task's failure (those are outcomes): the loop's own, which must not leave tasks running either.
            failure = e;
        }
        if (failure == null) {
            return;
        }
        firstFailed.accumulateAndGet(0, Math::min);
        for (Parallel.Task<Void> task : started) {
            Throwable other = Parallel.await(task).failure();
            if (other instanceof Error e && !(failure instanceof Error)) {
                e.addSuppressed(failure);
                failure = e;
            }
        }
        if (failure instanceof Error e) {
            throw e;
        }
        // A segment task throws nothing checked: every failure here is unchecked.
        throw (RuntimeException) failure;
    }

    /**
     * Copies the blocks of segment {@code s} (1 the first the manifest lists) into {@code state}: by {@link
     * #copyBlocks}, or, if a piece fails its CRC or a block its digest, from the segment read whole with every
     * fragment verified. Does nothing once an earlier segment has failed ({@code firstFailed}); lowers it to
     * {@code s} when this one fails.
     */
    private void copySegment(FragmentIndex index, JobView view, Manifest manifest, int s, int[] blocks,
                             long[] position, byte[] state, AtomicInteger firstFailed) {
        if (firstFailed.get() < s) {
            return;
        }
        try {
            FragmentIndex segmentIndex = segmentIndex(index, view, manifest.segments.get(s - 1));
            BlockCheck check = new BlockCheck(manifest);
            if (copyBlocks(segmentIndex, manifest, blocks, position, state, check) || firstFailed.get() < s) {
                return;
            }
            byte[] payload = reads.rebuild(segmentIndex).bytes();
            for (int i : blocks) {
                System.arraycopy(payload, (int) manifest.offset[i], state, (int) position[i], manifest.length[i]);
                if (!check.matches(i, state, (int) position[i])) {
                    throw new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), 0, List.of(
                            new FragmentFailure(-1, "decoder", FragmentFailure.Reason.CORRUPT, "block " + i
                                    + " of segment " + segmentIndex.checkpointId() + " does not match its digest "
                                    + Sha256.wrap(Arrays.copyOfRange(manifest.hashes, i * Sha256.LENGTH_BYTES,
                                    (i + 1) * Sha256.LENGTH_BYTES)))));
                }
            }
        } catch (RuntimeException | Error e) {
            firstFailed.accumulateAndGet(s, Math::min);
            throw e;
        }
    }

    /** The index of {@code segment}, found in {@code view} and checked against what the manifest records. */
    private FragmentIndex segmentIndex(FragmentIndex index, JobView view, Manifest.Segment segment) {
        List<FragmentFailure> failures = new ArrayList<>();
        JobView.Trace trace = view.traces.get(segment.id());
        if (trace == null) {
            failures.add(new FragmentFailure(-1, "any repository", FragmentFailure.Reason.MISSING,
                    "segment " + segment.id() + ", which the block manifest lists, is not listed"));
            throw unavailable(index, view, failures);
        }
        FragmentIndex segmentIndex = context.readIndex(index.jobId(), trace, failures).orElse(null);
        if (segmentIndex == null) {
            throw unavailable(index, view, failures);
        }
        if (segmentIndex.checkpointBytes() != segment.payloadBytes()
                || !segmentIndex.checkpointSha256().equals(segment.payloadSha256())) {
            failures.add(new FragmentFailure(-1, "any repository", FragmentFailure.Reason.CORRUPT,
                    "segment " + segment.id() + " is not the payload the block manifest names"));
            throw unavailable(index, view, failures);
        }
        return segmentIndex;
    }

    /** The blocks of each segment ({@code [0]} the checkpoint's own), each list in order of offset. */
    private static int[][] blocksBySegment(Manifest manifest) {
        int[] count = new int[manifest.segments.size() + 1];
        for (int i = 0; i < manifest.blocks; i++) {
            count[manifest.segmentOf[i]]++;
        }
        int[][] bySegment = new int[count.length][];
        for (int s = 0; s < count.length; s++) {
            bySegment[s] = new int[count[s]];
            count[s] = 0;
        }
        boolean[] sorted = new boolean[count.length];
        Arrays.fill(sorted, true);
        for (int i = 0; i < manifest.blocks; i++) {
            int s = manifest.segmentOf[i];
            int[] list = bySegment[s];
            if (count[s] > 0 && manifest.offset[list[count[s] - 1]] > manifest.offset[i]) {
                sorted[s] = false;
            }
            list[count[s]++] = i;
        }
        for (int s = 0; s < count.length; s++) {
            if (!sorted[s]) {
                bySegment[s] = Arrays.stream(bySegment[s]).boxed()
                        .sorted(Comparator.comparingLong((Integer i) -> manifest.offset[i]))
                        .mapToInt(Integer::intValue).toArray();
            }
        }
        return bySegment;
    }

    /**
     * Copies {@code blocks} (in order of offset) from the segment {@code segmentIndex} describes into their places
     * in {@code state}: {@code m} fragments are fetched whole and checked for length; of each stripe that holds a
     * block, the pieces are checked against their CRC-32C and decoded; every block copied is checked against its
     * SHA-256. Stripes holding no block are neither checked nor decoded, and no byte is hashed twice.
     *
     * @return false if fewer than {@code m} fragments could be fetched, a piece fails its CRC or a block its digest
     */
    private boolean copyBlocks(FragmentIndex segmentIndex, Manifest manifest, int[] blocks, long[] position,
                               byte[] state, BlockCheck check) {
        if (blocks.length == 0) {
            return true;
        }
        Map<Integer, byte[]> fragments;
        try {
            fragments = reads.fetchUnhashed(segmentIndex, new ArrayList<>());
        } catch (CheckpointStoreException e) {
            return false;
        }
        if (fragments.size() < segmentIndex.m()) {
            return false;
        }
        Dispersal d = context.dispersalFor(segmentIndex);
        Framing framing = new Framing(d, segmentIndex.segmentBytes(), segmentIndex.checkpointBytes());
        int stripeBytes = segmentIndex.segmentBytes();
        long fullPiece = d.pieceLength(stripeBytes) + (long) Framing.CRC_BYTES;
        int[] use = fragments.keySet().stream().sorted().limit(segmentIndex.m()).mapToInt(Integer::intValue)
                .toArray();
        byte[] stripe = new byte[(int) Math.min(stripeBytes, segmentIndex.checkpointBytes())];
        byte[][] pieces = new byte[segmentIndex.n()][];
        CRC32C crc = new CRC32C();
        long decoded = -1;
        for (int i : blocks) {
            long from = manifest.offset[i];
            long to = from + manifest.length[i];
            for (long at = from; at < to; ) {
                long t = at / stripeBytes;
                int stripeLength = framing.segmentLength(t);
                if (t != decoded) {
                    int pieceLength = d.pieceLength(stripeLength);
                    long pieceAt = t * fullPiece;
                    for (int f : use) {
                        byte[] fragment = fragments.get(f);
                        crc.reset();
                        crc.update(fragment, (int) pieceAt, pieceLength);
                        if ((int) crc.getValue() != Framing.getCrc(fragment, (int) (pieceAt + pieceLength))) {
                            return false;
                        }
                        pieces[f] = Arrays.copyOfRange(fragment, (int) pieceAt, (int) pieceAt + pieceLength);
                    }
                    d.decode(pieces, stripeLength, stripe);
                    decoded = t;
                }
                int within = (int) (at - t * stripeBytes);
                int length = (int) Math.min(to - at, stripeLength - within);
                System.arraycopy(stripe, within, state, (int) (position[i] + at - from), length);
                at += length;
            }
            if (!check.matches(i, state, (int) position[i])) {
                return false;
            }
        }
        return true;
    }

    /** Checks a block copied into the state against the SHA-256 its manifest records. */
    private static final class BlockCheck {
        private final Manifest manifest;
        private final MessageDigest sha = Sha256.newDigest();
        private final byte[] digest = new byte[Sha256.LENGTH_BYTES];

        BlockCheck(Manifest manifest) {
            this.manifest = manifest;
        }

        boolean matches(int block, byte[] state, int at) {
            sha.update(state, at, manifest.length[block]);
            try {
                sha.digest(digest, 0, digest.length);
            } catch (DigestException e) {
                throw new IllegalStateException("SHA-256 failed", e);
            }
            int from = block * Sha256.LENGTH_BYTES;
            return Arrays.equals(digest, 0, digest.length, manifest.hashes, from, from + Sha256.LENGTH_BYTES);
        }
    }

    private static CheckpointUnavailableException unavailable(FragmentIndex index, JobView view,
                                                              List<FragmentFailure> failures) {
        view.unreachable.forEach(id -> failures.add(new FragmentFailure(-1, id, FragmentFailure.Reason.UNAVAILABLE,
                "could not be listed")));
        return new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), 0, failures);
    }
}
