package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Differential commits read from a stream: they write the very payload a commit of the same bytes from an array
 * writes (the same blocks, the same compaction, the blocks that compaction moves read back from the repositories
 * instead of taken from the array), interleaved with array commits on one job, under random change patterns and a
 * tight space bound; a stream that fails midway commits nothing and deletes nothing; a stream many times longer than
 * the segment buffer is read in bounded pieces. Every state is recovered byte for byte, and the space bound holds
 * after every commit.
 */
class DifferentialStreamCommitTest {

    private static final String JOB = "job";
    private static final int BLOCK = Chunking.MIN_BLOCK_BYTES;

    /** Replays one seed of every test here: {@code -Dvolpex.streamcommit.seed=<seed>}. */
    private static final String SEED_PROPERTY = "volpex.streamcommit.seed";

    /** The seed of the check running now (each test runs once per seed, more in a deeper search). */
    private long seed;

    /** Runs {@code check} once per seed that {@link SearchDepth#eachSeed} gives, with {@link #seed} set to it. */
    private void eachSeed(Check check) {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, drawn -> {
            seed = drawn;
            check.run();
        });
    }

    /** A check that draws from {@link #seed}. */
    @FunctionalInterface
    private interface Check {
        void run() throws Exception;
    }

    private static List<Stores.Counting> counting(int count) {
        List<Stores.Counting> repositories = new ArrayList<>();
        for (FragmentRepository r : Stores.inMemory(count)) {
            repositories.add(new Stores.Counting(r));
        }
        return repositories;
    }

    private static CheckpointStore store(List<? extends FragmentRepository> repositories, Chunking chunking,
                                         double bound, long random) {
        return CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories).differential(chunking)
                .maxSpaceAmplification(bound).segmentBytes(4 * BLOCK).random(new SplittableRandom(random)).build();
    }

    private static long fragmentGets(List<Stores.Counting> repositories) {
        long gets = 0;
        for (Stores.Counting r : repositories) {
            for (Map.Entry<String, java.util.concurrent.atomic.AtomicLong> e : r.gets.entrySet()) {
                gets += e.getKey().contains(".f") ? e.getValue().get() : 0;
            }
        }
        return gets;
    }

    @Test
    void streamCommitsWriteWhatArrayCommitsWriteUnderEveryChangeAndChunking() {
        eachSeed(this::streamCommitsWriteWhatArrayCommitsWriteUnderEveryChangeAndChunkingWithSeed);
    }

    private void streamCommitsWriteWhatArrayCommitsWriteUnderEveryChangeAndChunkingWithSeed() throws Exception {
        // Blocks that do not divide the stream's window, and states several windows long: cuts at every window
        // boundary must be those of the array.
        // A stream commit compacts only when a segment it drops still has live blocks, which depends on the changes
        // drawn: some of the tight-bound runs must read blocks back, not each of them.
        int readBacks = 0;
        for (Chunking chunking : List.of(Chunking.fixed(3000), Chunking.contentDefined(4096))) {
            for (double bound : new double[] {1.0, 1.25, 2.0}) {
                int read = twins(chunking, chunking.blockBytes(), bound);
                readBacks += bound < 2 ? read : 0;
            }
        }
        assertTrue(readBacks > 0, "no stream commit at a bound below 2 compacted a segment, seed " + seed);
    }

    /**
     * Two stores with the same randomness over their own repositories: one commits every state from a stream or an
     * array at random, the other from an array always. Their payloads must be identical (same length, same SHA-256):
     * the stream path cuts, deduplicates, compacts and lays out the segment exactly as the array path does. Returns
     * how many stream commits read blocks back.
     */
    private int twins(Chunking chunking, int unit, double bound) throws Exception {
        String where = chunking + ", bound " + bound + ", seed " + seed;
        SplittableRandom random = new SplittableRandom(seed);
        long storeSeed = random.nextLong();
        List<Stores.Counting> streamed = counting(5);
        List<Stores.Counting> arrays = counting(5);
        CheckpointStore a = store(streamed, chunking, bound, storeSeed);
        CheckpointStore b = store(arrays, chunking, bound, storeSeed);
        byte[] state = Stores.data(random.nextLong(), 40 * unit + random.nextInt(unit));
        int streams = 0;
        int readBacks = 0;
        for (int round = 0; round < 40; round++) {
            boolean stream = round == 0 || random.nextBoolean();
            long getsBefore = fragmentGets(streamed);
            FragmentIndex x = stream ? a.commit(JOB, trickle(state, random.nextLong())) : a.commit(JOB, state);
            if (stream && fragmentGets(streamed) > getsBefore) {
                readBacks++;
            }
            streams += stream ? 1 : 0;
            FragmentIndex y = b.commit(JOB, state);
            String at = where + ", round " + round + (stream ? " (stream)" : " (array)");
            assertTrue(x.isDifferential(), at);
            assertEquals(y.checkpointBytes(), x.checkpointBytes(), "payload length, " + at);
            assertEquals(y.checkpointSha256(), x.checkpointSha256(), "payload, " + at);
            assertArrayEquals(state, a.recover(JOB).orElseThrow().toByteArray(), at);
            spaceBoundHolds(a, bound, at);
            assertEquals(0, a.collectGarbage(JOB), "a commit leaves nothing to collect, " + at);
            state = DifferentialChanges.change(state, DifferentialChanges.Change.values()[random.nextInt(
                    DifferentialChanges.Change.values().length)], random, unit);
        }
        assertArrayEquals(b.recover(JOB).orElseThrow().toByteArray(),
                store(streamed, Chunking.fixed(), bound, 1).recover(JOB).orElseThrow().toByteArray(),
                "a restarted store, " + where);
        assertTrue(streams >= 10, where);
        return readBacks;
    }

    /** A stream of {@code state} that hands out at most a random 1 to 5,000 bytes per read. */
    private static InputStream trickle(byte[] state, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ByteArrayInputStream in = new ByteArrayInputStream(state);
        return new InputStream() {
            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return in.read(b, off, Math.min(len, 1 + random.nextInt(5000)));
            }
        };
    }

    /**
     * The space bound: the block bytes held by the newest checkpoint and every segment its manifest lists are at most
     * {@code bound} times the bytes of the state's distinct blocks; and nothing but those checkpoints is kept.
     */
    private static void spaceBoundHolds(CheckpointStore store, double bound, String at) {
        List<FragmentIndex> present = store.checkpoints(JOB);
        FragmentIndex newest = present.get(0);
        Manifest manifest = Manifest.ofPayload(new Reads(store.context()).rebuild(newest).bytes());
        TreeSet<CheckpointId> expected = new TreeSet<>(Differential.segments(manifest));
        expected.add(newest.checkpointId());
        TreeSet<CheckpointId> ids = new TreeSet<>();
        long stored = 0;
        for (FragmentIndex index : present) {
            ids.add(index.checkpointId());
            stored += Manifest.ofPayload(new Reads(store.context()).rebuild(index).bytes()).ownBlockBytes;
        }
        assertEquals(expected, ids, "the checkpoints kept, " + at);
        Set<Manifest.BlockHash> distinct = new HashSet<>();
        long live = 0;
        for (int i = 0; i < manifest.blocks; i++) {
            if (distinct.add(manifest.hash(i))) {
                live += manifest.length[i];
            }
        }
        assertTrue(stored <= bound * live, "stored block bytes " + stored + " > " + bound + " × live " + live + ", "
                + at);
    }

    /** A stream that gives {@code failAfter} bytes of {@code state}, then fails. */
    private static InputStream failing(byte[] state, int failAfter) {
        ByteArrayInputStream head = new ByteArrayInputStream(state, 0, failAfter);
        return new java.io.FilterInputStream(head) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = head.read(b, off, len);
                if (n < 0 || len == 0) {
                    throw new IOException("the serializer failed after " + failAfter + " bytes");
                }
                return n;
            }
        };
    }

    @Test
    void aStreamThatFailsMidwayCommitsNothingAndDeletesNothingReferred() {
        eachSeed(this::aStreamThatFailsMidwayCommitsNothingAndDeletesNothingReferredWithSeed);
    }

    private void aStreamThatFailsMidwayCommitsNothingAndDeletesNothingReferredWithSeed() throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        for (Chunking chunking : List.of(Chunking.fixed(BLOCK), Chunking.contentDefined(BLOCK))) {
            List<Stores.Counting> repositories = counting(5);
            CheckpointStore store = store(repositories, chunking, 1.25, random.nextLong());
            byte[] state = Stores.data(random.nextLong(), 64 * BLOCK);
            store.commit(JOB, state);
            for (int round = 0; round < 12; round++) {
                String at = chunking + ", round " + round + ", seed " + seed;
                byte[] previous = state;
                List<String> before = Stores.everything(repositories);
                byte[] next = DifferentialChanges.change(state, DifferentialChanges.Change.values()[random.nextInt(
                        DifferentialChanges.Change.values().length)], random, BLOCK);
                int failAfter = random.nextInt(next.length + 1);
                List<String> deletesBefore = deletes(repositories);
                IOException e = assertThrows(IOException.class, () -> store.commit(JOB, failing(next, failAfter)),
                        at);
                assertTrue(e.getMessage().startsWith("the serializer failed"), at);
                // Nothing of the failed commit became visible: it has nothing to delete, and asks for no deletes.
                List<String> asked = deletes(repositories);
                assertEquals(deletesBefore, asked, "a failed stream asked for deletes of keys it never made "
                        + "visible, " + at);
                List<String> after = Stores.everything(repositories);
                assertTrue(new HashSet<>(after).containsAll(before), "a failed stream deleted "
                        + difference(before, after) + ", " + at);
                assertEquals(new HashSet<>(before), new HashSet<>(after), "a failed stream left objects behind, "
                        + at);
                assertArrayEquals(previous, store.recover(JOB).orElseThrow().toByteArray(), at);
                assertArrayEquals(previous, store(repositories, chunking, 1.25, 7).recover(JOB).orElseThrow()
                        .toByteArray(), "restarted, " + at);
                // The job goes on: a stream commit of the same state then succeeds.
                store.commit(JOB, new ByteArrayInputStream(next));
                assertArrayEquals(next, store.recover(JOB).orElseThrow().toByteArray(), at);
                spaceBoundHolds(store, 1.25, at);
                state = next;
            }
        }
    }

    /**
     * States at the edges of the stream's window — empty, one byte, the window's length and one byte either side of
     * it — committed from a stream and from an array to twin stores write the same payload and are recovered.
     */
    @Test
    void statesAtTheWindowsEdgesCommitFromAStreamAsFromAnArray() {
        eachSeed(this::statesAtTheWindowsEdgesCommitFromAStreamAsFromAnArrayWithSeed);
    }

    private void statesAtTheWindowsEdgesCommitFromAStreamAsFromAnArrayWithSeed() throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        for (Chunking chunking : List.of(Chunking.fixed(BLOCK), Chunking.fixed(3000), Chunking.contentDefined(4096))) {
            int window = Math.max(2 * chunking.maxBytes(), 1 << 16);
            for (int length : new int[] {0, 1, window - 1, window, window + 1}) {
                String at = chunking + ", " + length + " bytes, seed " + seed;
                long storeSeed = random.nextLong();
                CheckpointStore a = store(counting(5), chunking, 1.25, storeSeed);
                CheckpointStore b = store(counting(5), chunking, 1.25, storeSeed);
                byte[] base = Stores.data(random.nextLong(), length);
                byte[] state = DifferentialChanges.change(base, DifferentialChanges.Change.values()[random.nextInt(
                        DifferentialChanges.Change.values().length)], random, BLOCK);
                state = java.util.Arrays.copyOf(state, length);
                for (byte[] s : new byte[][] {base, state}) {
                    FragmentIndex x = a.commit(JOB, trickle(s, random.nextLong()));
                    FragmentIndex y = b.commit(JOB, s);
                    assertEquals(y.checkpointBytes(), x.checkpointBytes(), "payload length, " + at);
                    assertEquals(y.checkpointSha256(), x.checkpointSha256(), "payload, " + at);
                    assertArrayEquals(s, a.recover(JOB).orElseThrow().toByteArray(), at);
                }
            }
        }
    }

    private static List<String> deletes(List<Stores.Counting> repositories) {
        List<String> all = new ArrayList<>();
        repositories.forEach(r -> all.addAll(r.deletes));
        return all;
    }

    private static Set<String> difference(List<String> before, List<String> after) {
        Set<String> gone = new TreeSet<>(before);
        after.forEach(gone::remove);
        return gone;
    }

    /**
     * A state 128 times the segment buffer, streamed from a source that is never held whole: the store reads it
     * into one buffer of at most 64 KiB (its window), the same array at every read of a commit, so it cannot be
     * gathering the state; a tenth of the blocks change between commits and each commit stores about those.
     */
    @Test
    void aStreamManyTimesTheSegmentBufferIsReadInBoundedPieces() {
        eachSeed(this::aStreamManyTimesTheSegmentBufferIsReadInBoundedPiecesWithSeed);
    }

    private void aStreamManyTimesTheSegmentBufferIsReadInBoundedPiecesWithSeed() throws Exception {
        int segmentBytes = 8 * 1024;
        int blockBytes = 1024;
        int stateBytes = 128 * segmentBytes;
        List<Stores.Counting> repositories = counting(5);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories)
                .differential(Chunking.fixed(blockBytes)).segmentBytes(segmentBytes).build();
        SplittableRandom random = new SplittableRandom(seed);
        Map<Integer, Long> version = new HashMap<>();
        for (int round = 0; round < 4; round++) {
            if (round > 0) {
                for (int changed = 0; changed < stateBytes / blockBytes / 10; changed++) {
                    version.merge(random.nextInt(stateBytes / blockBytes), 1L, Long::sum);
                }
            }
            Generated source = new Generated(seed, stateBytes, blockBytes, version);
            FragmentIndex index = store.commit(JOB, source);
            assertEquals(1, source.buffers.size(), "read into " + source.buffers.size() + " arrays");
            int held = source.buffers.keySet().iterator().next().length;
            assertTrue(held <= 1 << 16, "read into an array of " + held + " bytes");
            Manifest manifest = Manifest.ofPayload(new Reads(store.context()).rebuild(index).bytes());
            assertEquals(stateBytes, manifest.stateBytes);
            if (round > 0) {
                assertTrue(manifest.ownBlockBytes <= stateBytes / 10 + 2L * blockBytes,
                        "stored " + manifest.ownBlockBytes + " bytes of a tenth changed, seed " + seed);
            }
            Generated expected = new Generated(seed, stateBytes, blockBytes, version);
            assertArrayEquals(expected.readAllBytes(), store.recover(JOB).orElseThrow().toByteArray(),
                    "round " + round + ", seed " + seed);
        }
    }

    /** A state made block by block from a seed and each block's version: never materialised by the source. */
    private static final class Generated extends InputStream {
        private final long seed;
        private final int blockBytes;
        private final Map<Integer, Long> version;
        private final byte[] block;
        private final int stateBytes;
        private int at;
        /** The arrays the stream was asked to fill. */
        final Map<byte[], Boolean> buffers = new java.util.IdentityHashMap<>();

        Generated(long seed, int stateBytes, int blockBytes, Map<Integer, Long> version) {
            this.seed = seed;
            this.stateBytes = stateBytes;
            this.blockBytes = blockBytes;
            this.version = version;
            this.block = new byte[blockBytes];
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 1 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            buffers.put(b, Boolean.TRUE);
            if (at == stateBytes) {
                return -1;
            }
            int n = 0;
            while (n < len && at < stateBytes) {
                int i = at / blockBytes;
                new SplittableRandom(seed * 31 + i * 1_000_003L + version.getOrDefault(i, 0L)).nextBytes(block);
                int within = at % blockBytes;
                int take = Math.min(len - n, blockBytes - within);
                System.arraycopy(block, within, b, off + n, take);
                n += take;
                at += take;
            }
            return n;
        }
    }

    /** A repository whose reads of the keys {@link #failing} matches fail, as from a host gone away. */
    private static final class Failing extends Stores.Forwarding {
        volatile java.util.function.Predicate<String> failing = key -> false;

        Failing(FragmentRepository delegate) {
            super(delegate);
        }

        @Override
        public java.util.Optional<byte[]> get(String key) throws IOException {
            if (failing.test(key)) {
                throw new io.github.volpex.checkpoint.repository.RepositoryUnavailableException(id(), "away", null);
            }
            return super.get(key);
        }
    }

    /**
     * A stream commit whose compaction cannot read a dropped segment back (its fragments' reads fail after the
     * listing showed them whole) fails typed and changes nothing; once the reads work, the same commit succeeds.
     */
    @Test
    void aSegmentThatCannotBeReadBackFailsTheCommitAndKeepsThePrevious() {
        eachSeed(this::aSegmentThatCannotBeReadBackFailsTheCommitAndKeepsThePreviousWithSeed);
    }

    private void aSegmentThatCannotBeReadBackFailsTheCommitAndKeepsThePreviousWithSeed() throws Exception {
        List<Failing> hosts = new ArrayList<>();
        for (FragmentRepository r : Stores.inMemory(5)) {
            hosts.add(new Failing(r));
        }
        CheckpointStore store = store(hosts, Chunking.fixed(BLOCK), 1.0, seed);
        byte[] state = Stores.data(seed, 32 * BLOCK);
        FragmentIndex first = store.commit(JOB, state);
        byte[] changed = state.clone();
        changed[3] ^= 1;
        // Bound 1: the first segment's 31 live blocks of 32 must move into the new one, read back from storage.
        String fragments = first.fragmentKey(0).substring(0, first.fragmentKey(0).length() - 1);
        hosts.forEach(host -> host.failing = key -> key.startsWith(fragments));
        List<String> before = Stores.everything(hosts);
        CommitFailedException e = assertThrows(CommitFailedException.class,
                () -> store.commit(JOB, new ByteArrayInputStream(changed)), "seed " + seed);
        assertTrue(e.getMessage().contains("could not be read back"), e.getMessage());
        assertEquals(new HashSet<>(before), new HashSet<>(Stores.everything(hosts)), "seed " + seed);
        hosts.forEach(host -> host.failing = key -> false);
        assertArrayEquals(state, store.recover(JOB).orElseThrow().toByteArray(), "seed " + seed);
        store.commit(JOB, new ByteArrayInputStream(changed));
        assertArrayEquals(changed, store.recover(JOB).orElseThrow().toByteArray(), "seed " + seed);
        assertEquals(1, store.checkpoints(JOB).size(), "the first segment was compacted away, seed " + seed);
        assertArrayEquals(changed, store(hosts, Chunking.fixed(), 2, 3).recover(JOB).orElseThrow().toByteArray());
    }

    /**
     * Damage the piece CRCs cannot see on the segment a stream commit's compaction reads back: on up to {@code k}
     * fragments, the blocks are read again from fragments verified by their SHA-256 and the commit stores the right
     * bytes; on more, it fails typed and the previous checkpoint stays — never a block whose bytes are not those its
     * digest names.
     */
    @Test
    void damageThePieceChecksCannotSeeIsCaughtWhenReadingBack() {
        eachSeed(this::damageThePieceChecksCannotSeeIsCaughtWhenReadingBackWithSeed);
    }

    private void damageThePieceChecksCannotSeeIsCaughtWhenReadingBackWithSeed() throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        for (int damaged = 1; damaged <= 5; damaged++) {
            List<Stores.Counting> repositories = counting(5);
            CheckpointStore store = store(repositories, Chunking.fixed(BLOCK), 1.0, random.nextLong());
            byte[] state = Stores.data(random.nextLong(), 32 * BLOCK);
            FragmentIndex first = store.commit(JOB, state);
            for (int f = 0; f < damaged; f++) {
                Stores.disguise(repositories, store, first, f, random);
            }
            byte[] changed = state.clone();
            changed[random.nextInt(changed.length)] ^= 1;
            String at = damaged + " fragments damaged, seed " + seed;
            if (damaged <= first.n() - first.m()) {
                store.commit(JOB, new ByteArrayInputStream(changed));
                assertArrayEquals(changed, store.recover(JOB).orElseThrow().toByteArray(), at);
                assertEquals(1, store.checkpoints(JOB).size(), "compacted, " + at);
            } else {
                assertThrows(CommitFailedException.class, () -> store.commit(JOB, new ByteArrayInputStream(changed)),
                        at);
                assertEquals(first.checkpointId(), store.checkpoints(JOB).get(0).checkpointId(), at);
            }
        }
    }
}
