package io.github.volpex.checkpoint.store;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
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

    Differential(StoreContext context, Reads reads, Chunking chunking) {
        this.context = context;
        this.reads = reads;
        this.chunking = chunking;
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
        return index.isDifferential() ? assemble(index, view) : reads.rebuild(index);
    }

    /** The checkpoint a commit refers to: the job's newest committed one, and its manifest. */
    record Base(FragmentIndex index, Manifest manifest) {
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

        /** The checkpoints whose segments the manifest lists: what collection must keep. */
        Set<CheckpointId> segments() {
            return Differential.segments(manifest);
        }
    }

    static Set<CheckpointId> segments(Manifest manifest) {
        Set<CheckpointId> ids = new LinkedHashSet<>();
        manifest.segments.forEach(segment -> ids.add(segment.id()));
        return ids;
    }

    /**
     * The base of a commit: the newest committed checkpoint of {@code view}, with its manifest — remembered from this
     * store's last commit when that is the one, read back otherwise. Null when there is none, it is a full
     * checkpoint, or its manifest cannot be read: the commit then stores every block.
     */
    Base base(String jobId, JobState state, JobView view) {
        JobView.Trace newest = view.newestCommitted().orElse(null);
        if (newest == null) {
            return null;
        }
        if (state.lastCommitted != null && state.lastManifest != null
                && state.lastCommitted.checkpointId().equals(newest.id)) {
            return new Base(state.lastCommitted, state.lastManifest);
        }
        try {
            FragmentIndex index = context.readIndex(jobId, newest, new ArrayList<>()).orElse(null);
            if (index == null || !index.isDifferential()) {
                return null;
            }
            return new Base(index, Manifest.ofPayload(reads.rebuild(index).bytes()));
        } catch (CheckpointStoreException | CorruptIndexException | IllegalStateException e) {
            return null;
        }
    }

    /**
     * Cuts {@code state} into blocks and decides, block by block, whether to refer to the base's copy or to store it
     * in the new segment; the segments it stops referring to are chosen by {@link #keptSegments} (compaction).
     */
    Plan plan(byte[] state, Base base) {
        Chunker chunker = chunking.chunker();
        int capacity = Math.min(Integer.MAX_VALUE / Sha256.LENGTH_BYTES,
                state.length / Math.max(1, chunking.minBytes()) + 2);
        int[] from = new int[Math.min(capacity, 1024)];
        int[] length = new int[from.length];
        byte[] hashes = new byte[from.length * Sha256.LENGTH_BYTES];
        int blocks = 0;
        MessageDigest whole = Sha256.newDigest();
        MessageDigest block = Sha256.newDigest();
        for (int start = 0; start < state.length; ) {
            int end = chunker.end(state, start, state.length);
            if (blocks == from.length) {
                int grown = (int) Math.min(capacity, (long) from.length * 2);
                from = Arrays.copyOf(from, grown);
                length = Arrays.copyOf(length, grown);
                hashes = Arrays.copyOf(hashes, grown * Sha256.LENGTH_BYTES);
            }
            from[blocks] = start;
            length[blocks] = end - start;
            block.update(state, start, end - start);
            try {
                block.digest(hashes, blocks * Sha256.LENGTH_BYTES, Sha256.LENGTH_BYTES);
            } catch (java.security.DigestException e) {
                throw new IllegalStateException("SHA-256 failed", e);
            }
            blocks++;
            start = end;
        }
        whole.update(state);
        Sha256 stateSha = Sha256.wrap(whole.digest());

        // The base's segments: 0 is the base checkpoint's own, then those its manifest lists.
        List<Manifest.Segment> baseSegments = new ArrayList<>();
        int[] baseRef = new int[blocks];
        Arrays.fill(baseRef, -1);
        if (base != null) {
            Manifest bm = base.manifest();
            baseSegments.add(new Manifest.Segment(base.index().checkpointId(), base.index().checkpointBytes(),
                    base.index().checkpointSha256(), bm.ownBlockBytes));
            baseSegments.addAll(bm.segments);
            Map<Manifest.BlockHash, Integer> known = new HashMap<>(bm.blocks * 2);
            for (int i = 0; i < bm.blocks; i++) {
                known.putIfAbsent(bm.hash(i), i);
            }
            long[] live = new long[baseSegments.size()];
            boolean[] counted = new boolean[bm.blocks];
            Set<Manifest.BlockHash> fresh = new HashSet<>();
            long freshBytes = 0;
            for (int i = 0; i < blocks; i++) {
                Manifest.BlockHash hash = Manifest.BlockHash.of(hashes, i * Sha256.LENGTH_BYTES);
                Integer j = known.get(hash);
                if (j != null) {
                    baseRef[i] = j;
                    if (!counted[j]) {
                        counted[j] = true;
                        live[bm.segmentOf[j]] += bm.length[j];
                    }
                } else if (fresh.add(hash)) {
                    freshBytes += length[i];
                }
            }
            boolean[] kept = keptSegments(baseSegments, live, freshBytes);
            for (int i = 0; i < blocks; i++) {
                if (baseRef[i] >= 0 && !kept[bm.segmentOf[baseRef[i]]]) {
                    baseRef[i] = -1;
                }
            }
            return build(state, stateSha, blocks, from, length, hashes, baseRef, bm, baseSegments, kept);
        }
        return build(state, stateSha, blocks, from, length, hashes, baseRef, null, baseSegments, new boolean[0]);
    }

    /**
     * The base segments still referred to. Those with no live block are dropped; of the others, the
     * {@link #MAX_SEGMENTS} with the most live bytes are kept; then, while the block bytes stored — the kept segments'
     * and the new segment's — exceed twice the live bytes, the kept segment with the smallest share of live bytes is
     * dropped (its live blocks move to the new segment), as a log-structured file system cleans its emptiest segments
     * first (Rosenblum and Ousterhout, SOSP '91). Each drop lowers the stored bytes and leaves the live ones; with
     * every segment dropped they are equal, so the loop ends with stored ≤ 2 × live.
     */
    private static boolean[] keptSegments(List<Manifest.Segment> segments, long[] live, long freshBytes) {
        List<Integer> candidates = new ArrayList<>();
        for (int s = 0; s < segments.size(); s++) {
            if (live[s] > 0) {
                candidates.add(s);
            }
        }
        candidates.sort(Comparator.comparingLong((Integer s) -> -live[s]));
        long own = freshBytes;
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
        while (stored > 2 * liveBytes && next < kept.size()) {
            int s = kept.get(next++);
            stored -= segments.get(s).blockBytes() - live[s];
        }
        boolean[] keep = new boolean[segments.size()];
        for (int c = next; c < kept.size(); c++) {
            keep[kept.get(c)] = true;
        }
        return keep;
    }

    private Plan build(byte[] state, Sha256 stateSha, int blocks, int[] from, int[] length, byte[] hashes,
                       int[] baseRef, Manifest bm, List<Manifest.Segment> baseSegments, boolean[] kept) {
        int[] ordinal = new int[baseSegments.size()];
        List<Manifest.Segment> segments = new ArrayList<>();
        for (int s = 0; s < baseSegments.size(); s++) {
            if (kept[s]) {
                segments.add(baseSegments.get(s));
                ordinal[s] = segments.size();
            }
        }
        int[] segmentOf = new int[blocks];
        long[] offset = new long[blocks];
        int[] runFrom = new int[Math.max(1, blocks)];
        int[] runLength = new int[runFrom.length];
        int runs = 0;
        long own = 0;
        Map<Manifest.BlockHash, Long> stored = new HashMap<>();
        for (int i = 0; i < blocks; i++) {
            if (baseRef[i] >= 0) {
                int j = baseRef[i];
                segmentOf[i] = ordinal[bm.segmentOf[j]];
                offset[i] = bm.offset[j];
                continue;
            }
            Manifest.BlockHash hash = Manifest.BlockHash.of(hashes, i * Sha256.LENGTH_BYTES);
            Long at = stored.get(hash);
            if (at == null) {
                at = own;
                stored.put(hash, at);
                if (runs > 0 && runFrom[runs - 1] + runLength[runs - 1] == from[i]) {
                    runLength[runs - 1] += length[i];
                } else {
                    runFrom[runs] = from[i];
                    runLength[runs] = length[i];
                    runs++;
                }
                own += length[i];
            }
            segmentOf[i] = 0;
            offset[i] = at;
        }
        Manifest manifest = new Manifest(chunking.code(), chunking.blockBytes(), state.length, stateSha, own,
                segments, blocks, segmentOf, offset, Arrays.copyOf(length, blocks),
                Arrays.copyOf(hashes, blocks * Sha256.LENGTH_BYTES));
        return new Plan(manifest, runFrom, runLength, runs);
    }

    /**
     * Rebuilds the state of the differential checkpoint {@code index}: its own payload, then each segment its
     * manifest lists (found in {@code view}, checked against the length and digest the manifest records), every
     * block copied into place, and the whole state checked against its digest.
     */
    RecoveredCheckpoint assemble(FragmentIndex index, JobView view) {
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
        copy(manifest, 0, own, position, state);
        for (int s = 1; s <= manifest.segments.size(); s++) {
            Manifest.Segment segment = manifest.segments.get(s - 1);
            List<FragmentFailure> failures = new ArrayList<>();
            JobView.Trace trace = view.traces.get(segment.id());
            if (trace == null) {
                failures.add(new FragmentFailure(-1, "any repository", FragmentFailure.Reason.MISSING,
                        "segment " + segment.id() + ", which the block manifest lists, is not listed"));
                throw unavailable(index, view, failures);
            }
            FragmentIndex segmentIndex = context.readIndex(jobId, trace, failures).orElse(null);
            if (segmentIndex == null) {
                throw unavailable(index, view, failures);
            }
            if (segmentIndex.checkpointBytes() != segment.payloadBytes()
                    || !segmentIndex.checkpointSha256().equals(segment.payloadSha256())) {
                failures.add(new FragmentFailure(-1, "any repository", FragmentFailure.Reason.CORRUPT,
                        "segment " + segment.id() + " is not the payload the block manifest names"));
                throw unavailable(index, view, failures);
            }
            copy(manifest, s, reads.rebuild(segmentIndex).bytes(), position, state);
        }
        if (!manifest.stateSha256.matches(state)) {
            throw new CheckpointUnavailableException(jobId, index.sequence(), index.m(), 0, List.of(
                    new FragmentFailure(-1, "decoder", FragmentFailure.Reason.CORRUPT,
                            "the state rebuilt from its blocks does not match its digest " + manifest.stateSha256)));
        }
        return new RecoveredCheckpoint(index, state);
    }

    private static CheckpointUnavailableException unavailable(FragmentIndex index, JobView view,
                                                              List<FragmentFailure> failures) {
        view.unreachable.forEach(id -> failures.add(new FragmentFailure(-1, id, FragmentFailure.Reason.UNAVAILABLE,
                "could not be listed")));
        return new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), 0, failures);
    }

    /** Copies every block of segment {@code s} from {@code payload} to its place in {@code state}. */
    private static void copy(Manifest manifest, int s, byte[] payload, long[] position, byte[] state) {
        for (int i = 0; i < manifest.blocks; i++) {
            if (manifest.segmentOf[i] == s) {
                System.arraycopy(payload, (int) manifest.offset[i], state, (int) position[i], manifest.length[i]);
            }
        }
    }
}
