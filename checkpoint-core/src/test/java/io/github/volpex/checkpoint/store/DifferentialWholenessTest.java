package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A differential checkpoint refers to a segment only if all {@code n} of its fragments are there when it is committed,
 * not only when its commit started: fragments of the base's segments vanish while a commit reads its stream (from
 * inside the stream, after a random number of bytes), while it reads back the blocks its compaction moves (at its first
 * fragment read) or while it uploads its array (at its first fragment's write), and the committed checkpoint must still
 * survive {@code k} further losses on every segment it refers to and be recovered byte for byte. The base comes from a
 * random history of array and stream commits, its segments lose {@code 1..k} fragments each (a random non-empty subset
 * of them), the state changes by a random pattern, and the space bound is drawn from 1 to 4. A segment that can no
 * longer be decoded at all fails a stream commit that needs its blocks, typed, with nothing published.
 */
class DifferentialWholenessTest {

    private static final String JOB = "job";
    private static final int BLOCK = Chunking.MIN_BLOCK_BYTES;
    private static final int M = 3;
    private static final int K = 2;

    /** Replays one seed of every test here: {@code -Dvolpex.wholeness.seed=<seed>}. */
    private static final String SEED_PROPERTY = "volpex.wholeness.seed";

    /**
     * A repository that runs a task once, at the first write of a fragment of a checkpoint it did not hold, and
     * another at the first read of a fragment.
     */
    private static final class Tripwire extends Stores.Forwarding {
        volatile Set<CheckpointId> held = Set.of();
        /** The ids of checkpoints not held whose fragments were written here (attempts of the commit under test). */
        final Set<CheckpointId> written = java.util.concurrent.ConcurrentHashMap.newKeySet();
        volatile Runnable task;
        volatile Runnable onRead;

        Tripwire(FragmentRepository delegate) {
            super(delegate);
        }

        @Override
        public void put(String key, byte[] content) throws IOException {
            StoreKeys.Parsed parsed = StoreKeys.parse(key);
            Set<CheckpointId> before = held;
            if (!before.isEmpty() && parsed != null && parsed.kind() == StoreKeys.Kind.FRAGMENT
                    && !before.contains(parsed.id())) {
                written.add(parsed.id());
            }
            Runnable run = task;
            if (run != null && parsed != null && parsed.kind() == StoreKeys.Kind.FRAGMENT
                    && !held.contains(parsed.id())) {
                task = null;
                run.run();
            }
            super.put(key, content);
        }

        @Override
        public java.util.Optional<byte[]> get(String key) throws IOException {
            Runnable run = onRead;
            if (run != null && is(key, StoreKeys.Kind.FRAGMENT)) {
                onRead = null;
                run.run();
            }
            return super.get(key);
        }
    }

    private static boolean is(String key, StoreKeys.Kind kind) {
        StoreKeys.Parsed parsed = StoreKeys.parse(key);
        return parsed != null && parsed.kind() == kind;
    }

    /** {@code task}, run once however many threads call it. */
    private static Runnable once(Runnable task) {
        return new Runnable() {
            private boolean ran;

            @Override
            public synchronized void run() {
                if (!ran) {
                    ran = true;
                    task.run();
                }
            }
        };
    }

    /** {@code state} as a stream that runs {@code task} once, before it hands out anything past byte {@code at}. */
    private static InputStream tripping(byte[] state, int at, Runnable task, SplittableRandom random) {
        ByteArrayInputStream in = new ByteArrayInputStream(state);
        return new InputStream() {
            private int given;
            private boolean tripped;

            private void trip() {
                if (!tripped && given >= at) {
                    tripped = true;
                    task.run();
                }
            }

            @Override
            public int read() {
                trip();
                int b = in.read();
                given += b < 0 ? 0 : 1;
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                trip();
                int limit = tripped ? len : Math.max(1, Math.min(len, at - given));
                int n = in.read(b, off, Math.min(limit, 1 + random.nextInt(5000)));
                given += Math.max(0, n);
                return n;
            }
        };
    }

    /** {@code state} as a stream handing out a random 1 to 5,000 bytes per read. */
    private static InputStream trickle(byte[] state, SplittableRandom random) {
        return tripping(state, state.length + 1, () -> { }, random);
    }

    private static CheckpointStore store(List<? extends FragmentRepository> repositories, Chunking chunking,
                                         double bound, long seed) {
        return CheckpointStore.perennial(IdaCodec.systematic(M, K), repositories).differential(chunking)
                .maxSpaceAmplification(bound).segmentBytes(4 * BLOCK).random(new SplittableRandom(seed)).build();
    }

    private static Set<CheckpointId> present(List<? extends FragmentRepository> repositories) throws Exception {
        Set<CheckpointId> ids = new HashSet<>();
        for (FragmentRepository r : repositories) {
            for (String key : r.list("")) {
                StoreKeys.Parsed parsed = StoreKeys.parse(key);
                if (parsed != null) {
                    ids.add(parsed.id());
                }
            }
        }
        return ids;
    }

    /** What one trial set up: the store, its repositories, and the state the job has now. */
    private record Job(CheckpointStore store, List<Tripwire> hosts, Chunking chunking, double bound, byte[] state) {
    }

    /** A store with a history of one to six commits, from arrays and streams, under random changes. */
    private static Job history(SplittableRandom random) throws Exception {
        Chunking chunking = random.nextBoolean() ? Chunking.fixed(BLOCK) : Chunking.contentDefined(BLOCK);
        double bound = new double[] {1.0, 1.25, 1.5, 2.0, 4.0}[random.nextInt(5)];
        List<Tripwire> hosts = new ArrayList<>();
        for (FragmentRepository r : Stores.inMemory(M + K)) {
            hosts.add(new Tripwire(r));
        }
        CheckpointStore store = store(hosts, chunking, bound, random.nextLong());
        byte[] state = Stores.data(random.nextLong(), (16 + random.nextInt(32)) * BLOCK);
        for (int c = 1 + random.nextInt(6); c > 0; c--) {
            if (random.nextBoolean()) {
                store.commit(JOB, state);
            } else {
                store.commit(JOB, new ByteArrayInputStream(state));
            }
            state = DifferentialChanges.change(state, randomChange(random), random, BLOCK);
        }
        return new Job(store, hosts, chunking, bound, state);
    }

    private static DifferentialChanges.Change randomChange(SplittableRandom random) {
        // Mostly small changes, so that the next commit refers to the base's segments.
        DifferentialChanges.Change[] changes = DifferentialChanges.Change.values();
        return random.nextInt(3) == 0 ? changes[random.nextInt(changes.length)] : DifferentialChanges.Change.SCATTERED;
    }

    /**
     * Deletes {@code 1..k} fragments of a random non-empty subset of the segments of the job's newest checkpoint (its
     * own and those it lists), with more ({@code k + 1..n}) on one of them when {@code undecodable}.
     */
    private static Runnable losses(Job job, SplittableRandom random, boolean undecodable) {
        return losses(job, random, undecodable, false);
    }

    /** As {@link #losses(Job, SplittableRandom, boolean)}; on every segment if {@code everySegment}. */
    private static Runnable losses(Job job, SplittableRandom random, boolean undecodable, boolean everySegment) {
        FragmentIndex base = job.store().checkpoints(JOB).get(0);
        List<CheckpointId> segments = new ArrayList<>(DifferentialDurabilityTest.segments(job.store(), base));
        List<CheckpointId> doomed = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (CheckpointId id : segments) {
            if (everySegment || random.nextBoolean()) {
                doomed.add(id);
                counts.add(1 + random.nextInt(K));
            }
        }
        if (doomed.isEmpty() || undecodable) {
            CheckpointId id = segments.get(random.nextInt(segments.size()));
            int already = doomed.indexOf(id);
            if (already >= 0) {
                doomed.remove(already);
                counts.remove(already);
            }
            doomed.add(id);
            counts.add(undecodable ? K + 1 + random.nextInt(M) : 1 + random.nextInt(K));
        }
        long lossSeed = random.nextLong();
        return () -> {
            SplittableRandom losing = new SplittableRandom(lossSeed);
            try {
                for (int i = 0; i < doomed.size(); i++) {
                    DifferentialDurabilityTest.lose(job.hosts(), doomed.get(i), counts.get(i), losing);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /**
     * The guarantee: {@code k} further fragments of every segment {@code committed} refers to are deleted, and it is
     * recovered byte for byte, by the store that committed it and by a restarted one.
     */
    private static void survivesKLossesOnEverySegment(Job job, FragmentIndex committed, byte[] state,
                                                      SplittableRandom random, String at) throws Exception {
        Set<CheckpointId> segments = DifferentialDurabilityTest.segments(job.store(), committed);
        for (CheckpointId id : segments) {
            DifferentialDurabilityTest.lose(job.hosts(), id, K, random);
        }
        try {
            RecoveredCheckpoint recovered = job.store().recover(JOB).orElseThrow();
            assertEquals(committed.checkpointId(), recovered.index().checkpointId(), at);
            assertArrayEquals(state, recovered.toByteArray(), at);
            assertArrayEquals(state, store(job.hosts(), job.chunking(), job.bound(), 1).recover(JOB).orElseThrow()
                    .toByteArray(), "restarted, " + at);
        } catch (CheckpointStoreException e) {
            throw new AssertionError("the committed checkpoint did not survive " + K + " losses on each of its "
                    + segments.size() + " segments, " + at, e);
        }
    }

    @Test
    void fragmentsLostWhileTheStreamIsReadAreNotReferredTo() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            for (int trial = 0; trial < 24; trial++) {
                String at = "trial " + trial + ", seed " + seed;
                // While the state is read, or once it has ended: at the first fragment read back — then on every
                // segment, so that those the compaction keeps lose fragments too.
                boolean whileRead = random.nextBoolean();
                Job job = history(random);
                byte[] next = DifferentialChanges.change(job.state(), randomChange(random), random, BLOCK);
                Runnable loss = once(losses(job, random, false, !whileRead));
                if (!whileRead) {
                    job.hosts().forEach(host -> host.onRead = loss);
                }
                FragmentIndex committed = job.store().commit(JOB, whileRead
                        ? tripping(next, random.nextInt(next.length + 1), loss, random)
                        : trickle(next, random));
                job.hosts().forEach(host -> host.onRead = null);
                survivesKLossesOnEverySegment(job, committed, next, random, at + (whileRead ? ", lost while read"
                        : ", lost while read back"));
            }
        });
    }

    @Test
    void fragmentsLostWhileAnArrayIsUploadedAreNotReferredTo() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            int replanned = 0;
            for (int trial = 0; trial < 24; trial++) {
                String at = "trial " + trial + ", seed " + seed;
                Job job = history(random);
                byte[] next = DifferentialChanges.change(job.state(), randomChange(random), random, BLOCK);
                Runnable loss = losses(job, random, false);
                Set<CheckpointId> held = present(job.hosts());
                for (Tripwire host : job.hosts()) {
                    host.held = held;
                }
                // The first host to be written runs the losses, and only once.
                Runnable first = once(loss);
                job.hosts().forEach(host -> host.task = first);
                FragmentIndex committed = job.store().commit(JOB, next);
                job.hosts().forEach(host -> host.task = null);
                // An attempt abandoned because a segment it referred to lost fragments wrote under an id of its own.
                replanned += job.hosts().stream().flatMap(host -> host.written.stream()).distinct().count() > 1 ? 1 : 0;
                survivesKLossesOnEverySegment(job, committed, next, random, at);
            }
            assertTrue(replanned > 0, "no commit had to plan its array again, seed " + seed);
        });
    }

    /**
     * More than {@code k} fragments of a base segment vanish while the stream is read: a commit that needs blocks of
     * it can no longer read them back and fails typed, publishing nothing; one that needs none of them commits
     * without referring to it, and that checkpoint survives {@code k} losses on every segment it refers to.
     */
    @Test
    void aSegmentThatBecameUndecodableWhileTheStreamWasReadFailsTheCommitCleanly() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            int failed = 0;
            for (int trial = 0; trial < 24; trial++) {
                String at = "trial " + trial + ", seed " + seed;
                Job job = history(random);
                byte[] next = DifferentialChanges.change(job.state(), randomChange(random), random, BLOCK);
                Runnable loss = losses(job, random, true);
                List<List<String>> afterLoss = new ArrayList<>();
                Runnable recorded = () -> {
                    loss.run();
                    try {
                        afterLoss.add(Stores.everything(job.hosts()));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                };
                FragmentIndex committed;
                try {
                    committed = job.store().commit(JOB, tripping(next, random.nextInt(next.length + 1), recorded,
                            random));
                } catch (CommitFailedException e) {
                    failed++;
                    assertFalse(e.reachedCommitPoint(), at);
                    assertEquals(new HashSet<>(afterLoss.get(0)), new HashSet<>(Stores.everything(job.hosts())),
                            "a failed commit published or deleted objects, " + at);
                    continue;
                }
                survivesKLossesOnEverySegment(job, committed, next, random, at);
            }
            assertTrue(failed > 0, "no commit needed blocks of the segment that could no longer be decoded, seed "
                    + seed);
        });
    }
}
