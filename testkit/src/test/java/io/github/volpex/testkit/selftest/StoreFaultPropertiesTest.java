package io.github.volpex.testkit.selftest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.checkpoint.store.AbandonedCommit;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CheckpointStoreException;
import io.github.volpex.checkpoint.store.CheckpointUnavailableException;
import io.github.volpex.checkpoint.store.Chunking;
import io.github.volpex.checkpoint.store.CommitSupersededException;
import io.github.volpex.checkpoint.store.CorruptIndexException;
import io.github.volpex.checkpoint.store.EpochSource;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.store.FragmentLocation;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.checkpoint.store.RepositoriesUnreachableException;
import io.github.volpex.checkpoint.store.Sha256;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testkit.Fault;
import io.github.volpex.testkit.FaultSchedule;
import io.github.volpex.testkit.FaultyRepository;
import io.github.volpex.testkit.RandomFaults;
import io.github.volpex.testkit.RepositoryCall;
import io.github.volpex.testkit.SimulatedCrash;
import io.github.volpex.testsupport.Scale;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;

/**
 * The store's guarantee under random sequences of commits, recoveries, repairs, collections, lease renewals and
 * process restarts, in both modes and with every kind of epoch source, while repositories fail, time out, lose
 * replies, drop writes silently, get corrupted, lose their data, become unreachable and come back, processes crash at
 * any call, deletes fail while a failed commit cleans up, and the clock of each new process is off by up to two hours
 * either way and steps while it runs.
 *
 * <p>The ground truth is a model fed by the repositories themselves ({@link RecordingRepository}, behind the fault
 * injection): when each checkpoint's first commit marker really was stored (its commit point), when each commit
 * returned, and which objects the test itself damaged. Let <i>L</i> be the last checkpoint whose commit returned. After
 * every operation: recovery returns only the bytes of a checkpoint that reached its commit point, never one whose
 * commit point came before <i>L</i>'s commit returned while a marker of <i>L</i> is visible, never "no checkpoint"
 * while a marker of <i>L</i> is visible or a repository is unreachable, and a checkpoint whenever a marker of <i>L</i>
 * is visible and every visible committed checkpoint ordered from <i>L</i> on can be rebuilt from the repositories that
 * answer; every checkpoint ordered from <i>L</i> on with a marker anywhere, and not damaged by the test, can be
 * rebuilt from what is stored (it counts in full or not at all); and an operation that deletes <i>L</i>'s fragments
 * leaves a checkpoint that reached its commit point after <i>L</i>'s commit returned and can be rebuilt.
 *
 * <p>A second family of properties lets damage accumulate across repair cycles: each cycle damages fragments, index
 * copies and markers of at most {@code k} holders in all (counting those still damaged), then repairs under light
 * faults; recovery must return the newest checkpoint every time. On differential stores every committed checkpoint is
 * damaged so, each within its own {@code k}, so that damage accumulates on the older segments the newest lists too,
 * which only a repair that repairs them keeps within bounds. A third family runs differential stores that nobody
 * repairs: each cycle commits under light faults (the process dying now and then), and after every commit that
 * returns, every committed checkpoint loses up to {@code k} further fragments, so losses add up on the older segments;
 * the newest must be recovered every time, which holds only if a commit never refers to a segment that is not whole.
 *
 * <p>The same histories run with most commits asynchronous ({@link CheckpointStore#commitAsync}), their persists
 * queued until the history drains them at random steps; there a commit returns when its stage completes
 * successfully, and a process dies or closes with persists pending.
 *
 * <p>The same histories run on differential stores ({@link CheckpointStore.Builder#differential}), fixed-size and
 * content-defined, committing a state that changes by a random pattern at every commit — not at all, a few scattered
 * bytes, all of it, growing, shrinking, an insertion or a deletion in the middle — so that checkpoints refer to blocks
 * in the segments of older ones, and collection and compaction run interleaved with the crashes and faults; of
 * their synchronous commits, three in eight read the state from an array, four in eight from a stream (compaction
 * then reads moved blocks back from the repositories, under the same faults), and one in eight from a stream that
 * fails midway, which must throw the stream's exception and count for nothing. There a
 * checkpoint counts as rebuildable when a fault-free reader rebuilds its state from its own segment and every segment
 * it lists, and no store call may turn the last committed checkpoint from rebuildable into not rebuildable from the
 * repositories that answer (deleting a block it refers to) unless a checkpoint that reached its commit point after it
 * returned can be rebuilt from them. Successive writers run on differential stores too: each new writer takes the job
 * over with a new epoch, learns its base from what the repositories hold, and refers to the older segments of
 * checkpoints that earlier writers committed.
 *
 * <p>Sizes for CI; {@code -Pscale} runs ten times longer operation sequences, repair cycles and writer generations,
 * and histories of 10,000 operations (some 2,800 commit attempts) instead of 400 (the README's longer runs).
 */
class StoreFaultPropertiesTest {

    private static final String JOB = "job";
    /** Whether the long runs were asked for ({@code -Pscale} sets {@code volpex.scale=full}). */
    private static final boolean FULL = Scale.full();
    private static final int MAX_OPERATIONS = FULL ? 400 : 40;
    private static final int REPAIR_CYCLES = FULL ? 300 : 30;
    private static final int GENERATIONS = FULL ? 200 : 20;
    /** The operations of one long history: under -Pscale, thousands of commits accumulate in it. */
    private static final int LONG_HISTORY = FULL ? 10_000 : 400;

    /** The store configurations, with how many repositories each gets. */
    enum Mode {
        EPHEMERAL(5, null),
        SYSTEMATIC(7, IdaCodec.systematic(3, 2).withStripeSizeBytes(16)),
        RABIN(6, IdaCodec.rabin(2, 2).withStripeSizeBytes(8));

        final int repositories;
        final IdaCodec codec;

        Mode(int repositories, IdaCodec codec) {
            this.repositories = repositories;
            this.codec = codec;
        }
    }

    /** Where each process takes its epoch. */
    enum Epochs {
        /** A counter outside the processes, as a coordination service keeps. */
        FENCED,
        /** The default: one more than the greatest listed, from a complete listing. */
        LISTING,
        /** The same with the epoch at least the process's clock, which is off and steps. */
        CLOCK
    }

    @Property(tries = 300)
    void ephemeral(@ForAll("operations") List<Integer> operations, @ForAll Epochs epochs, @ForAll long seed)
            throws IOException {
        new World(Mode.EPHEMERAL, epochs, seed).run(operations);
    }

    @Property(tries = 300)
    void perennial_systematic(@ForAll("operations") List<Integer> operations, @ForAll Epochs epochs,
                              @ForAll long seed) throws IOException {
        new World(Mode.SYSTEMATIC, epochs, seed).run(operations);
    }

    @Property(tries = 300)
    void perennial_rabin(@ForAll("operations") List<Integer> operations, @ForAll Epochs epochs, @ForAll long seed)
            throws IOException {
        new World(Mode.RABIN, epochs, seed).run(operations);
    }

    /**
     * A history the deep search falsified: repair moves a fragment of the newest checkpoint and writes a new revision
     * of its index, one of whose copies a later collection cannot read; collection took the older revision for the
     * newest and deleted the moved fragment as a copy left behind.
     */
    @Example
    void collection_never_takes_a_moved_fragment_for_a_stray_copy_on_an_older_index_revision() throws IOException {
        new World(Mode.EPHEMERAL, Epochs.FENCED, 1811).run(List.of(0, 0, 0, 0, 0, 28, 28, 92, 48, 40, 48));
    }

    /**
     * The same histories with most commits asynchronous: their persists wait on a queue the history drains at random
     * steps, so that commits accumulate (the waiting one superseded), repairs, collections, recoveries, crashes and
     * outages come between a commit's acceptance and its persist, and processes die or close with persists pending.
     * A commit counts as returned when its stage completes successfully.
     */
    @Property(tries = 200)
    void ephemeral_asynchronous(@ForAll("operations") List<Integer> operations, @ForAll Epochs epochs,
                                @ForAll long seed) throws IOException {
        new World(Mode.EPHEMERAL, epochs, seed, true).run(operations);
    }

    @Property(tries = 200)
    void perennial_systematic_asynchronous(@ForAll("operations") List<Integer> operations, @ForAll Epochs epochs,
                                           @ForAll long seed) throws IOException {
        new World(Mode.SYSTEMATIC, epochs, seed, true).run(operations);
    }

    /**
     * One long asynchronous history per mode: under {@code -Pscale}, 10,000 operations with some 2,800 commits
     * accepted.
     */
    @Property(tries = 1)
    void a_long_asynchronous_history_in_every_mode(@ForAll("anySeed") long seed) throws IOException {
        for (Mode mode : Mode.values()) {
            List<Integer> operations = longHistory(seed);
            new World(mode, Epochs.LISTING, seed, true).run(operations);
        }
    }

    /**
     * Seeds drawn uniformly from every {@code long}, without edge cases: a property of one try given a plain
     * {@code @ForAll long} would draw from a few small values run after run.
     */
    @Provide
    Arbitrary<Long> anySeed() {
        return Arbitraries.longs().withDistribution(RandomDistribution.uniform()).withoutEdgeCases();
    }

    /** One long history for every mode and every kind of epoch source. */
    @Property(tries = 1)
    void a_long_history_in_every_configuration(@ForAll("anySeed") long seed) throws IOException {
        for (Mode mode : Mode.values()) {
            for (Epochs epochs : Epochs.values()) {
                List<Integer> operations = longHistory(seed);
                new World(mode, epochs, seed).run(operations);
            }
        }
    }

    @Property(tries = 15)
    void damage_within_k_per_repair_cycle_never_accumulates_ephemeral(@ForAll Epochs epochs, @ForAll long seed)
            throws IOException {
        new World(Mode.EPHEMERAL, epochs, seed).repairCycles(REPAIR_CYCLES);
    }

    @Property(tries = 15)
    void damage_within_k_per_repair_cycle_never_accumulates_systematic(@ForAll Epochs epochs, @ForAll long seed)
            throws IOException {
        new World(Mode.SYSTEMATIC, epochs, seed).repairCycles(REPAIR_CYCLES);
    }

    @Property(tries = 15)
    void damage_within_k_per_repair_cycle_never_accumulates_rabin(@ForAll Epochs epochs, @ForAll long seed)
            throws IOException {
        new World(Mode.RABIN, epochs, seed).repairCycles(REPAIR_CYCLES);
    }

    @Property(tries = 10)
    void damage_within_k_per_repair_cycle_never_accumulates_differential_systematic(
            @ForAll Epochs epochs, @ForAll boolean contentDefined, @ForAll long seed) throws IOException {
        new World(Mode.SYSTEMATIC, epochs, seed, false, chunking(contentDefined)).repairCycles(REPAIR_CYCLES);
    }

    @Property(tries = 10)
    void damage_within_k_per_repair_cycle_never_accumulates_differential_ephemeral(
            @ForAll Epochs epochs, @ForAll boolean contentDefined, @ForAll long seed) throws IOException {
        new World(Mode.EPHEMERAL, epochs, seed, false, chunking(contentDefined)).repairCycles(REPAIR_CYCLES);
    }

    @Property(tries = 20)
    void losses_accumulating_on_older_segments_without_repair_differential(
            @ForAll boolean rabin, @ForAll Epochs epochs, @ForAll boolean contentDefined, @ForAll long seed)
            throws IOException {
        new World(rabin ? Mode.RABIN : Mode.SYSTEMATIC, epochs, seed, false, chunking(contentDefined))
                .lossCycles(REPAIR_CYCLES);
    }

    @Property(tries = 20)
    void successive_writers_differential_systematic(@ForAll Epochs epochs, @ForAll boolean contentDefined,
                                                    @ForAll long seed) throws IOException {
        new World(Mode.SYSTEMATIC, epochs, seed, false, chunking(contentDefined)).successiveWriters(GENERATIONS);
    }

    @Property(tries = 20)
    void successive_writers_differential_rabin(@ForAll Epochs epochs, @ForAll boolean contentDefined,
                                               @ForAll long seed) throws IOException {
        new World(Mode.RABIN, epochs, seed, false, chunking(contentDefined)).successiveWriters(GENERATIONS);
    }

    @Property(tries = 40)
    void successive_writers_with_clocks_that_step_ephemeral(@ForAll Epochs epochs, @ForAll long seed)
            throws IOException {
        new World(Mode.EPHEMERAL, epochs, seed).successiveWriters(GENERATIONS);
    }

    @Property(tries = 40)
    void successive_writers_with_clocks_that_step_systematic(@ForAll Epochs epochs, @ForAll long seed)
            throws IOException {
        new World(Mode.SYSTEMATIC, epochs, seed).successiveWriters(GENERATIONS);
    }

    @Property(tries = 120)
    void perennial_systematic_differential(@ForAll("operations") List<Integer> operations, @ForAll Epochs epochs,
                                           @ForAll boolean contentDefined, @ForAll long seed) throws IOException {
        new World(Mode.SYSTEMATIC, epochs, seed, false, chunking(contentDefined)).run(operations);
    }

    @Property(tries = 80)
    void ephemeral_differential(@ForAll("operations") List<Integer> operations, @ForAll Epochs epochs,
                                @ForAll boolean contentDefined, @ForAll long seed) throws IOException {
        new World(Mode.EPHEMERAL, epochs, seed, false, chunking(contentDefined)).run(operations);
    }

    @Property(tries = 80)
    void perennial_rabin_differential_asynchronous(@ForAll("operations") List<Integer> operations,
                                                   @ForAll Epochs epochs, @ForAll boolean contentDefined,
                                                   @ForAll long seed) throws IOException {
        new World(Mode.RABIN, epochs, seed, true, chunking(contentDefined)).run(operations);
    }

    /** One long differential history per mode, content-defined and fixed-size in turn. */
    @Property(tries = 1)
    void a_long_differential_history_in_every_mode(@ForAll("anySeed") long seed) throws IOException {
        for (Mode mode : Mode.values()) {
            List<Integer> operations = longHistory(seed);
            new World(mode, Epochs.LISTING, seed, mode == Mode.RABIN, chunking(mode == Mode.SYSTEMATIC))
                    .run(operations);
        }
    }

    /**
     * A history that falsified a first version of the differential judgement: the test damages an old segment and a
     * repository becomes unreachable, so neither the last committed checkpoint nor the next can be rebuilt from the
     * repositories that answer; the next commit, which needs none of the last one's own blocks, deletes them. Nothing
     * was lost that was still rebuildable, so the store is right; the judgement now asks whether a call makes the
     * last committed checkpoint stop being rebuildable, not whether its fragments went.
     */
    @Example
    void a_differential_commit_may_free_the_segment_of_a_checkpoint_already_unrebuildable() throws IOException {
        new World(Mode.SYSTEMATIC, Epochs.LISTING, Long.MAX_VALUE, false, chunking(true))
                .run(longHistory(Long.MAX_VALUE));
    }

    /** The operations of one long history, drawn from {@code seed}. */
    private static List<Integer> longHistory(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Integer> operations = new ArrayList<>();
        for (int i = 0; i < LONG_HISTORY; i++) {
            operations.add(random.nextInt(100));
        }
        return operations;
    }

    /** Small blocks, so that states of a few KiB have many. */
    private static Chunking chunking(boolean contentDefined) {
        return contentDefined ? Chunking.contentDefined(Chunking.MIN_BLOCK_BYTES)
                : Chunking.fixed(Chunking.MIN_BLOCK_BYTES);
    }

    @Provide
    Arbitrary<List<Integer>> operations() {
        return Arbitraries.integers().between(0, 99).list().ofMinSize(1).ofMaxSize(MAX_OPERATIONS);
    }

    /** {@code job.<epoch>.<sequence>.<commit id>.} of a key or an index. */
    private static String prefix(String key) {
        return key.substring(0, key.lastIndexOf('.') + 1);
    }

    private static String prefix(FragmentIndex index) {
        return prefix(index.markerKey());
    }

    /** The order of checkpoints (epoch, sequence, commit id unsigned), read from their key prefixes. */
    private static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 1; i <= 3; i++) {
            int c = Long.compareUnsigned(Long.parseUnsignedLong(x[i], 16), Long.parseUnsignedLong(y[i], 16));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /**
     * Faults aimed at a commit's clean-up: marker writes whose replies are lost or that fail, listings of one
     * checkpoint that fail (so a commit cannot count its markers and gives up), and deletes of markers that fail or
     * vanish; everything else succeeds. Optionally a crash at a given call.
     */
    private static final class CleanUpFaults implements FaultSchedule {
        private final SplittableRandom random;
        private final long crashAt;
        private long calls;

        CleanUpFaults(SplittableRandom random, long crashAt) {
            this.random = random;
            this.crashAt = crashAt;
        }

        @Override
        public synchronized Fault next(String repositoryId, RepositoryCall call, String key) {
            if (calls >= crashAt) {
                return Fault.CRASH_BEFORE;
            }
            if (++calls == crashAt) {
                return random.nextBoolean() ? Fault.CRASH_BEFORE : Fault.CRASH_AFTER;
            }
            double draw = random.nextDouble();
            boolean marker = key.endsWith(".ok");
            return switch (call) {
                case PUT -> marker ? (draw < 0.4 ? Fault.REPLY_LOST : draw < 0.6 ? Fault.FAIL : Fault.NONE)
                        : Fault.NONE;
                case LIST -> key.length() > JOB.length() + 1 && draw < 0.6 ? Fault.FAIL : Fault.NONE;
                case DELETE -> marker ? (draw < 0.5 ? Fault.FAIL : draw < 0.7 ? Fault.DROP : Fault.NONE) : Fault.NONE;
                default -> Fault.NONE;
            };
        }

        @Override
        public String toString() {
            return "clean-up faults" + (crashAt < Long.MAX_VALUE ? ", crash at call " + crashAt : "");
        }
    }

    /** What really happened to the objects, in order: fed by the repositories behind the faults. */
    private static final class Model implements RecordingRepository.Listener {
        /** Advances at every change that takes effect and every commit that returns. */
        long time;
        /** Whether the test itself is changing objects (damage), not the store. */
        boolean damaging;
        /** Checkpoint prefix → when its first commit marker was stored. */
        final Map<String, Long> commitPoints = new HashMap<>();
        /** The checkpoints whose objects the test damaged. */
        final Set<String> damaged = new HashSet<>();

        @Override
        public synchronized void stored(String repositoryId, String key) {
            time++;
            if (damaging) {
                damaged.add(prefix(key));
            } else if (key.endsWith(".ok")) {
                commitPoints.putIfAbsent(prefix(key), time);
            }
        }

        @Override
        public synchronized void deleted(String repositoryId, String key) {
            time++;
            if (damaging) {
                damaged.add(prefix(key));
            }
        }
    }

    /** The clock of the host a process runs on: the test's time plus an error that the test sets and steps. */
    private static final class HostClock implements InstantSource {
        private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
        long elapsedSeconds;
        long errorSeconds;

        @Override
        public Instant instant() {
            return START.plusSeconds(elapsedSeconds + errorSeconds);
        }
    }

    /** The repositories, the current process and the ground truth of one run. */
    private static final class World {
        private final Mode mode;
        private final Epochs epochMode;
        private final long seed;
        private final SplittableRandom random;
        private final Model model = new Model();
        private final List<FaultyRepository> repositories = new ArrayList<>();
        private final EpochSource fenced = new CounterEpochs();
        private final HostClock clock = new HostClock();
        /** The bytes of every commit attempted, by their digest. */
        private final Map<Sha256, byte[]> attempted = new HashMap<>();
        private final List<String> history = new ArrayList<>();
        private CheckpointStore store;
        private FaultSchedule faults = FaultSchedule.none();
        /** The last checkpoint whose commit returned, and when it returned. */
        private FragmentIndex lastCommitted;
        private long lastReturned;
        /** Whether most commits are asynchronous. */
        private final boolean asynchronous;
        /** The current process's executor: its tasks wait until the history drains them. */
        private DeferredExecutor executor = new DeferredExecutor();
        /** The stages of the current process's asynchronous commits not yet seen decided. */
        private final List<CompletionStage<FragmentIndex>> pending = new ArrayList<>();
        /** How a differential store cuts states, or null for full checkpoints. */
        private final Chunking chunking;
        /** The state the job commits next, changed by a random pattern at every commit (differential runs). */
        private byte[] state = new byte[0];
        /** The bytes of every checkpoint whose commit returned, by its key prefix. */
        private final Map<String, byte[]> returned = new HashMap<>();

        World(Mode mode, Epochs epochMode, long seed) {
            this(mode, epochMode, seed, false);
        }

        World(Mode mode, Epochs epochMode, long seed, boolean asynchronous) {
            this(mode, epochMode, seed, asynchronous, null);
        }

        World(Mode mode, Epochs epochMode, long seed, boolean asynchronous, Chunking chunking) {
            this.chunking = chunking;
            this.mode = mode;
            this.epochMode = epochMode;
            this.seed = seed;
            this.asynchronous = asynchronous;
            this.random = new SplittableRandom(seed);
            for (int i = 0; i < mode.repositories; i++) {
                repositories.add(FaultyRepository.wrap(new RecordingRepository(FragmentRepository.inMemory("r" + i),
                        model)));
            }
            restart();
        }

        void run(List<Integer> operations) throws IOException {
            try {
                for (int code : operations) {
                    step(code);
                }
                checkRecovery("at the end");
            } catch (AssertionError e) {
                throw failure(e);
            }
        }

        private AssertionError failure(AssertionError e) {
            List<String> tail = history.subList(Math.max(0, history.size() - 30), history.size());
            return new AssertionError(mode + ", " + epochMode + " epochs" + (asynchronous ? ", asynchronous" : "")
                    + (chunking != null ? ", differential " + chunking : "")
                    + ", seed " + seed + ": " + e.getMessage()
                    + "\nlast steps: " + tail, e);
        }

        private void restart() {
            if (asynchronous && store != null && random.nextBoolean()) {
                closeWithPersistsPending();
            }
            // The process is gone: what its executor still held never runs.
            executor = new DeferredExecutor();
            pending.clear();
            faults = FaultSchedule.none();
            repositories.forEach(r -> r.schedule(faults));
            // A new host, whose clock is off by up to two hours either way, or steps from the last host's by up to an
            // hour either way.
            clock.errorSeconds = random.nextBoolean() ? random.nextLong(-7200, 7201)
                    : clock.errorSeconds + random.nextLong(-3600, 3601);
            CheckpointStore.Builder builder = mode.codec == null ? CheckpointStore.ephemeral(repositories)
                    : CheckpointStore.perennial(mode.codec, repositories);
            EpochSource epochs = switch (epochMode) {
                case FENCED -> fenced;
                case LISTING -> EpochSource.listing();
                case CLOCK -> EpochSource.clock(clock);
            };
            if (chunking != null) {
                builder.differential(chunking);
            }
            store = builder.random(new SplittableRandom(random.nextLong())).segmentBytes(32).epochs(epochs)
                    .clock(clock).lease(Duration.ofDays(365)).executor(executor).build();
            history.add("restart (clock " + clock.errorSeconds + " s off)");
        }

        private void step(int code) throws IOException {
            clock.elapsedSeconds++;
            if (asynchronous && random.nextInt(3) == 0) {
                storeCall("persist", this::drain);
            }
            if (code < 28) {
                commit();
            } else if (code < 40) {
                history.add("recover");
                checkRecovery("recovery");
            } else if (code < 48) {
                storeCall("repair", () -> store.repair(JOB));
            } else if (code < 54) {
                storeCall("collect", () -> store.collectGarbage(JOB));
            } else if (code < 57) {
                storeCall("renew", () -> store.renewLease(JOB, Duration.ofDays(365)));
            } else if (code < 63) {
                restart();
            } else if (code < 70) {
                FaultyRepository r = pick();
                r.setReachable(false);
                history.add(r.id() + " unreachable");
            } else if (code < 80) {
                FaultyRepository r = pick();
                r.setReachable(true);
                history.add(r.id() + " reachable");
            } else if (code < 86) {
                FaultyRepository repository = pick();
                List<String> keys = repository.delegate().list("");
                if (!keys.isEmpty()) {
                    String key = keys.get(random.nextInt(keys.size()));
                    damage(() -> repository.corrupt(key, random.nextLong()));
                    history.add("corrupt " + repository.id() + "/" + key);
                }
            } else if (code < 88) {
                FaultyRepository repository = pick();
                damage(() -> wipe(repository));
                history.add("wipe " + repository.id());
            } else if (code < 90) {
                // A partition: about half the repositories become unreachable, the others reachable.
                List<String> away = new ArrayList<>();
                for (FaultyRepository repository : repositories) {
                    repository.setReachable(random.nextBoolean());
                    if (!repository.isReachable()) {
                        away.add(repository.id());
                    }
                }
                history.add("partition: " + away + " unreachable");
            } else if (code < 92) {
                long step = random.nextLong(-900, 901);
                clock.errorSeconds += step;
                history.add("clock steps " + step + " s");
            } else {
                setFaults();
            }
            checkRecovery("after step " + code);
            checkWhole("after step " + code);
        }

        private void commit() throws IOException {
            byte[] data;
            if (chunking == null) {
                data = new byte[random.nextInt(200)];
                random.nextBytes(data);
            } else {
                data = nextState();
            }
            attempted.put(Sha256.of(data), data);
            if (asynchronous && random.nextInt(4) != 0) {
                storeCall("commit asynchronously", () -> {
                    CompletionStage<FragmentIndex> stage = store.commitAsync(JOB, data);
                    pending.add(stage);
                    stage.thenAccept(index -> {
                        synchronized (model) {
                            lastCommitted = index;
                            lastReturned = ++model.time;
                            returned.put(prefix(index), data);
                        }
                        history.add("durable " + prefix(index));
                    });
                });
                return;
            }
            if (asynchronous) {
                // A synchronous commit waits for the persists accepted before it: they run first.
                storeCall("persist", this::drain);
            }
            // On differential stores a synchronous commit reads its state from an array three times in eight (0-2),
            // from a stream four times (3-6), and once from a stream that fails midway (7), which commits nothing.
            int source = chunking == null ? 0 : random.nextInt(8);
            if (source == 7) {
                int failAfter = random.nextInt(data.length + 1);
                storeCall("commit from a stream failing after " + failAfter + " bytes", () -> {
                    try {
                        store.commit(JOB, new SequenceInputStream(new ByteArrayInputStream(data, 0, failAfter),
                                new InputStream() {
                                    @Override
                                    public int read() throws IOException {
                                        throw new IOException("the stream failed");
                                    }
                                }));
                        throw new AssertionError("a commit from a stream that failed returned");
                    } catch (IOException expected) {
                        assertEquals("the stream failed", expected.getMessage());
                    }
                });
                return;
            }
            storeCall(source >= 3 ? "commit from a stream" : "commit", () -> {
                FragmentIndex index;
                try {
                    index = source >= 3 ? store.commit(JOB, new ByteArrayInputStream(data)) : store.commit(JOB, data);
                } catch (IOException e) {
                    throw new UncheckedIOException("a byte array stream cannot fail", e);
                }
                synchronized (model) {
                    lastCommitted = index;
                    lastReturned = ++model.time;
                    returned.put(prefix(index), data);
                }
                history.add("committed " + prefix(index));
            });
        }

        /**
         * The job's next state: the current one unchanged, with a few bytes changed, wholly new, grown, shrunk, or
         * with bytes inserted or deleted in the middle (which shifts every later byte).
         */
        private byte[] nextState() {
            byte[] next;
            int length = state.length;
            switch (random.nextInt(7)) {
                case 0 -> next = state.clone();
                case 1 -> {
                    next = state.clone();
                    for (int i = random.nextInt(1, 5); i > 0 && length > 0; i--) {
                        next[random.nextInt(length)] ^= (byte) random.nextInt(1, 256);
                    }
                }
                case 2 -> next = randomBytes(random.nextInt(4096));
                case 3 -> next = concat(state, randomBytes(random.nextInt(1, 1024)));
                case 4 -> next = java.util.Arrays.copyOf(state, random.nextInt(length + 1));
                case 5 -> {
                    int at = random.nextInt(length + 1);
                    next = concat(concat(java.util.Arrays.copyOf(state, at), randomBytes(random.nextInt(1, 300))),
                            java.util.Arrays.copyOfRange(state, at, length));
                }
                default -> {
                    int at = random.nextInt(length + 1);
                    int end = Math.min(length, at + random.nextInt(300));
                    next = concat(java.util.Arrays.copyOf(state, at), java.util.Arrays.copyOfRange(state, end, length));
                }
            }
            state = next;
            return next;
        }

        private byte[] randomBytes(int length) {
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            return bytes;
        }

        private static byte[] concat(byte[] a, byte[] b) {
            byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, both, a.length, b.length);
            return both;
        }

        /**
         * The bytes a recovered checkpoint must hold: those of its commit if it returned, otherwise those of the
         * commit attempted with its digest (a differential checkpoint's index carries its segment's digest, so its
         * state is looked up by the digest of the bytes recovered); null if no commit attempted them.
         */
        private byte[] expected(RecoveredCheckpoint checkpoint) {
            byte[] committed = returned.get(prefix(checkpoint.index()));
            if (committed != null) {
                return committed;
            }
            return attempted.get(checkpoint.index().isDifferential() ? Sha256.of(checkpoint.toByteArray())
                    : checkpoint.index().checkpointSha256());
        }

        /**
         * A fault-free reader of what the repositories hold, past the faults: {@code reachableOnly} makes it see the
         * unreachable repositories as unreachable.
         */
        private CheckpointStore oracle(boolean reachableOnly) {
            List<FragmentRepository> views = new ArrayList<>();
            for (FaultyRepository repository : repositories) {
                views.add(new FragmentRepository() {
                    private void check() throws IOException {
                        if (reachableOnly && !repository.isReachable()) {
                            throw new io.github.volpex.checkpoint.repository.RepositoryUnavailableException(id(),
                                    "away", null);
                        }
                    }

                    @Override
                    public String id() {
                        return repository.id();
                    }

                    @Override
                    public void put(String key, byte[] content) {
                        throw new UnsupportedOperationException("the oracle only reads");
                    }

                    @Override
                    public Optional<byte[]> get(String key) throws IOException {
                        check();
                        return repository.delegate().get(key);
                    }

                    @Override
                    public boolean delete(String key) {
                        throw new UnsupportedOperationException("the oracle only reads");
                    }

                    @Override
                    public List<String> list(String prefix) throws IOException {
                        check();
                        return repository.delegate().list(prefix);
                    }
                });
            }
            CheckpointStore.Builder builder = mode.codec == null
                    ? CheckpointStore.ephemeral(views)
                    : CheckpointStore.perennial(mode.codec, views);
            return builder.build();
        }

        /** Whether a fault-free reader rebuilds the differential checkpoint {@code index}, segments included. */
        private boolean rebuildsDifferential(FragmentIndex index, boolean reachableOnly) {
            try {
                oracle(reachableOnly).recover(index);
                return true;
            } catch (CheckpointStoreException | CorruptIndexException e) {
                return false;
            }
        }

        /**
         * Runs what the process's executor holds — the persists accepted, and those they promote — then reports the
         * decided stages: a stage that failed with the process's death is that death, one that failed otherwise must
         * carry a typed exception.
         */
        private void drain() {
            executor.drain();
            for (java.util.Iterator<CompletionStage<FragmentIndex>> i = pending.iterator(); i.hasNext(); ) {
                CompletableFuture<FragmentIndex> stage = i.next().toCompletableFuture();
                if (!stage.isDone()) {
                    continue;
                }
                i.remove();
                Throwable failure = failureOf(stage);
                if (failure instanceof SimulatedCrash crash) {
                    throw crash;
                }
                if (failure instanceof CommitSupersededException) {
                    history.add("superseded");
                } else if (failure != null) {
                    assertTrue(failure instanceof CheckpointStoreException, "an untyped failure: " + failure);
                    history.add("persist failed: " + failure.getClass().getSimpleName());
                }
            }
            assertTrue(pending.isEmpty(), "stages undecided once every persist ran: " + pending.size());
        }

        /**
         * Closes the process's store at once with persists pending: each is abandoned before it started, and running
         * what the executor held afterwards writes nothing that counts.
         */
        private void closeWithPersistsPending() {
            long undecided = pending.stream().filter(s -> !s.toCompletableFuture().isDone()).count();
            List<AbandonedCommit> abandoned = store.close(Duration.ZERO);
            history.add("close: " + abandoned.size() + " abandoned");
            assertTrue(abandoned.size() == undecided, "close abandoned " + abandoned + " with " + undecided
                    + " stages undecided");
            for (CompletionStage<FragmentIndex> stage : pending) {
                Throwable failure = failureOf(stage.toCompletableFuture());
                assertTrue(failure == null || failure instanceof CheckpointStoreException
                        || failure instanceof SimulatedCrash, "an untyped failure: " + failure);
            }
            for (AbandonedCommit commit : abandoned) {
                assertFalse(commit.started(), "a commit abandoned before its persist ran had started: " + commit);
            }
            try {
                executor.drain();
            } catch (SimulatedCrash crash) {
                // The abandoned persists do nothing; what else the process left may meet its death.
            }
        }

        /** What a decided stage failed with, unwrapped; null if it completed successfully. */
        private static Throwable failureOf(CompletableFuture<FragmentIndex> stage) {
            Throwable failure = stage.handle((index, t) -> t).join();
            return failure instanceof java.util.concurrent.CompletionException wrapped ? wrapped.getCause() : failure;
        }

        private FaultyRepository pick() {
            return repositories.get(random.nextInt(repositories.size()));
        }

        private interface Damage {
            void run() throws IOException;
        }

        /** Changes objects as the world does, not as the store does: the model marks what it touches damaged. */
        private void damage(Damage damage) throws IOException {
            model.damaging = true;
            try {
                damage.run();
            } finally {
                model.damaging = false;
            }
        }

        private static void wipe(FaultyRepository repository) throws IOException {
            FragmentRepository lost = repository.delegate();
            for (String key : lost.list("")) {
                lost.delete(key);
            }
        }

        /** Gives the current process a new schedule: none, light, heavy, or failures aimed at clean-up. */
        private void setFaults() {
            int level = random.nextInt(4);
            SplittableRandom draws = new SplittableRandom(random.nextLong());
            long crashAt = random.nextBoolean() ? 1 + random.nextInt(120) : Long.MAX_VALUE;
            if (level == 3) {
                faults = new CleanUpFaults(draws, crashAt);
            } else {
                RandomFaults.Builder builder = RandomFaults.builder(draws).timeout(Duration.ZERO);
                double scale = level == 0 ? 0 : level == 1 ? 0.02 : 0.08;
                for (Fault fault : List.of(Fault.FAIL, Fault.TIMEOUT, Fault.REPLY_LOST, Fault.DROP)) {
                    builder.probability(fault, scale);
                }
                if (level == 2) {
                    builder.probability(RepositoryCall.DELETE, Fault.FAIL, 0.3)
                            .probability(RepositoryCall.DELETE, Fault.DROP, 0.1);
                }
                if (crashAt < Long.MAX_VALUE) {
                    builder.crashAtCall(crashAt);
                }
                faults = builder.build();
            }
            repositories.forEach(r -> r.schedule(faults));
            history.add("faults " + faults);
        }

        private interface StoreCall {
            void run();
        }

        /**
         * Runs an operation of the current process; a crash restarts it, a typed failure is allowed. Whatever the
         * operation deletes of the last committed checkpoint, a checkpoint that reached its commit point after that
         * commit returned must be there and rebuildable.
         */
        private void storeCall(String name, StoreCall call) throws IOException {
            FragmentIndex before = lastCommitted;
            long returned = lastReturned;
            // A differential checkpoint's fragments may go once a newer one no longer refers to them; what must not
            // happen is that it stops being rebuildable (from the repositories that answer) while no newer one is.
            // A newer one refers only to segments the last one refers to, so it is rebuildable unless one of those
            // was not rebuildable before the call either.
            Set<String> held = before == null || chunking != null ? Set.of() : new Truth().currentFragments(before);
            boolean wasRebuildable = before != null && chunking != null
                    && rebuildsDifferential(newestRevision(before), true);
            try {
                call.run();
                history.add(name);
            } catch (SimulatedCrash crash) {
                history.add(name + ": crash");
                restart();
            } catch (CheckpointStoreException expected) {
                // Allowed: the store reported what it could not do.
                history.add(name + ": " + expected.getClass().getSimpleName());
            }
            if (!held.isEmpty()) {
                Truth after = new Truth();
                Set<String> gone = new HashSet<>(held);
                gone.removeAll(after.present);
                if (!gone.isEmpty()) {
                    assertTrue(after.laterRebuildable(returned), name + " deleted " + gone + " of the last committed "
                            + before + " while no checkpoint that reached its commit point after it returned can be "
                            + "rebuilt: " + after);
                }
            }
            if (wasRebuildable && !rebuildsDifferential(newestRevision(before), true)) {
                assertTrue(new Truth().laterRebuildable(returned), name + " made the last committed " + before
                        + " impossible to rebuild (a block it refers to is gone) while no checkpoint that reached its "
                        + "commit point after it returned can be rebuilt");
            }
        }

        /** The newest readable revision of {@code index} on any repository (repair may have moved fragments). */
        private FragmentIndex newestRevision(FragmentIndex index) throws IOException {
            FragmentIndex newest = index;
            for (FragmentIndex copy : new Truth().allIndexes.getOrDefault(prefix(index), List.of())) {
                if (copy.revision() > newest.revision()) {
                    newest = copy;
                }
            }
            return newest;
        }

        /**
         * The newest checkpoint with a marker anywhere counts in full, unless the test damaged it: a checkpoint that
         * may count never lacks its index or fragments. (Below a whole or damaged one, collection may have deleted
         * older checkpoints whose markers stayed on repositories that were unreachable.)
         */
        private void checkWhole(String when) throws IOException {
            Truth truth = new Truth();
            List<String> newestFirst = new ArrayList<>(truth.markersAnywhere);
            newestFirst.sort((a, b) -> compare(b, a));
            for (String prefix : newestFirst) {
                if (lastCommitted != null && compare(prefix, prefix(lastCommitted)) < 0) {
                    return;
                }
                if (model.damaged.contains(prefix) || truth.rebuildableFromAll(prefix)) {
                    return;
                }
                if (chunking != null && model.damaged.stream().anyMatch(d -> compare(d, prefix) < 0)) {
                    // A differential checkpoint needs the segments of older ones, which the test may have damaged.
                    return;
                }
                fail(when + ": " + prefix + " has a commit marker but cannot be rebuilt from what is stored, and the "
                        + "test never damaged it: " + truth);
            }
        }

        /** Recovers with a fault-free process (the repositories stay as they are) and checks the guarantee. */
        private void checkRecovery(String when) throws IOException {
            repositories.forEach(r -> r.schedule(FaultSchedule.none()));
            try {
                Truth truth = new Truth();
                Optional<RecoveredCheckpoint> recovered;
                try {
                    recovered = store.recover(JOB);
                } catch (RepositoriesUnreachableException e) {
                    assertTrue(repositories.stream().anyMatch(r -> !r.isReachable()),
                            when + ": unreachable reported with every repository up: " + e.getMessage());
                    assertFalse(truth.mustRecover(), when + ": " + truth + " but " + e.getMessage());
                    return;
                } catch (CheckpointUnavailableException e) {
                    assertFalse(truth.mustRecover(), when + ": " + truth + " but " + e.getMessage());
                    return;
                }
                if (recovered.isEmpty()) {
                    assertTrue(repositories.stream().allMatch(FaultyRepository::isReachable),
                            when + ": 'no checkpoint' while repositories are unreachable");
                    assertTrue(truth.markersVisible.isEmpty(), when + ": 'no checkpoint' but " + truth);
                    return;
                }
                RecoveredCheckpoint checkpoint = recovered.get();
                byte[] expected = expected(checkpoint);
                if (expected == null) {
                    fail(when + ": recovered bytes of no commit: " + checkpoint.index());
                }
                assertArrayEquals(expected, checkpoint.toByteArray(), when + ": recovered bytes differ");
                String prefix = prefix(checkpoint.index());
                Long commitPoint = model.commitPoints.get(prefix);
                assertTrue(commitPoint != null, when + ": recovered a checkpoint that never reached its commit point: "
                        + checkpoint.index());
                if (truth.lastVisible()) {
                    assertTrue(prefix.equals(prefix(lastCommitted)) || commitPoint > lastReturned, when
                            + ": recovered " + checkpoint.index() + ", whose commit point came before the last "
                            + "committed " + lastCommitted + " returned");
                }
            } finally {
                repositories.forEach(r -> r.schedule(faults));
            }
        }

        // ----------------------------------------------------------------------------------- successive writers

        /**
         * One writer after another, each on a host whose clock is off or steps from the last one's, each starting
         * while some repositories are unreachable — often exactly those the previous writer could reach — and
         * committing a few checkpoints (under light faults, sometimes crashing). Then every repository comes back:
         * recovery must give the last checkpoint whose commit returned, or one that reached its commit point after it.
         */
        void successiveWriters(int generations) throws IOException {
            try {
                Set<FaultyRepository> away = new HashSet<>();
                for (int generation = 0; generation < generations; generation++) {
                    clock.elapsedSeconds += 1 + random.nextInt(5);
                    int dice = random.nextInt(4);
                    Set<FaultyRepository> next = new HashSet<>();
                    for (FaultyRepository repository : repositories) {
                        boolean unreachable = dice == 0 ? false : dice == 1 ? !away.contains(repository)
                                : random.nextInt(3) == 0;
                        repository.setReachable(!unreachable);
                        if (unreachable) {
                            next.add(repository);
                        }
                    }
                    away = next;
                    history.add("generation " + generation + ": " + away.stream().map(FaultyRepository::id).sorted()
                            .toList() + " unreachable");
                    restart();
                    checkRecovery("generation " + generation + " starts");
                    if (random.nextInt(4) == 0) {
                        setFaults();
                    } else {
                        lightFaults();
                    }
                    for (int commits = 1 + random.nextInt(3); commits > 0; commits--) {
                        commit();
                    }
                    repositories.forEach(r -> r.setReachable(true));
                    checkRecovery("generation " + generation + " ends");
                    checkWhole("generation " + generation + " ends");
                    if (random.nextInt(3) == 0) {
                        storeCall("collect", () -> store.collectGarbage(JOB));
                        checkRecovery("generation " + generation + " collected");
                    }
                }
            } catch (AssertionError e) {
                throw failure(e);
            }
        }

        // ---------------------------------------------------------------------------------------- repair cycles

        /**
         * Commits a checkpoint, then runs {@code cycles} cycles: sometimes a new commit or a restart; damage to at
         * most {@code k} holders of the newest checkpoint in all (those still damaged count); a repair under light
         * faults; and recovery, which must return the newest checkpoint every time.
         */
        void repairCycles(int cycles) throws IOException {
            try {
                while (lastCommitted == null) {
                    commit();
                }
                for (int cycle = 0; cycle < cycles; cycle++) {
                    clock.elapsedSeconds += 60;
                    int dice = random.nextInt(10);
                    if (dice < 2) {
                        lightFaults();
                        commit();
                    } else if (dice < 3) {
                        restart();
                    } else if (dice < 4) {
                        clock.errorSeconds += random.nextLong(-900, 901);
                    }
                    repositories.forEach(r -> r.schedule(FaultSchedule.none()));
                    damageWithinK(cycle);
                    mustRecoverNewest("cycle " + cycle + " after damage");
                    // A repair under light faults may leave work undone; a second one, without faults, must finish.
                    lightFaults();
                    storeCall("repair", () -> store.repair(JOB));
                    repositories.forEach(r -> r.schedule(FaultSchedule.none()));
                    storeCall("repair", () -> store.repair(JOB));
                    restored("cycle " + cycle);
                    mustRecoverNewest("cycle " + cycle + " after repair");
                    checkWhole("cycle " + cycle);
                }
            } catch (AssertionError e) {
                throw failure(e);
            }
        }

        /**
         * Lets fragment losses accumulate on a differential store that nobody repairs: each cycle commits under light
         * faults (the process dies first now and then), and after every commit that returns, every committed
         * checkpoint — so every segment the newest lists — loses up to k of the fragments it still has; the newest
         * must be recovered every time. Losses on an older segment add up over the cycles; a checkpoint may refer to
         * it only while it has all n fragments.
         */
        void lossCycles(int cycles) throws IOException {
            try {
                while (lastCommitted == null) {
                    commit();
                }
                for (int cycle = 0; cycle < cycles; cycle++) {
                    clock.elapsedSeconds += 60;
                    if (random.nextInt(10) < 2) {
                        restart();
                    }
                    lightFaults();
                    FragmentIndex before = lastCommitted;
                    commit();
                    repositories.forEach(r -> r.schedule(FaultSchedule.none()));
                    if (lastCommitted != before) {
                        loseWithinK(cycle);
                    }
                    mustRecoverNewest("cycle " + cycle + " after losses");
                }
            } catch (AssertionError e) {
                throw failure(e);
            }
        }

        /** Deletes up to k further fragments of every committed checkpoint, each from its recorded holder. */
        private void loseWithinK(int cycle) throws IOException {
            Truth truth = new Truth();
            for (String target : truth.markersVisible) {
                FragmentIndex index = truth.indexes.get(target);
                if (index == null) {
                    continue;
                }
                List<Integer> present = new ArrayList<>();
                for (int i = 0; i < index.n(); i++) {
                    if (truth.intactFragment(index, i, false)) {
                        present.add(i);
                    }
                }
                Collections.shuffle(present, new java.util.Random(random.nextLong()));
                int count = random.nextBoolean() ? index.k() : random.nextInt(index.k() + 1);
                List<Integer> lost = present.subList(0, Math.min(count, present.size()));
                for (int i : lost) {
                    FaultyRepository repository = byId(index.fragments().get(i).repositoryId());
                    damage(() -> repository.delegate().delete(index.fragmentKey(i)));
                }
                history.add("cycle " + cycle + " loses fragments " + lost + " of " + target);
            }
        }

        private void lightFaults() {
            faults = random.nextBoolean() ? FaultSchedule.none()
                    : RandomFaults.builder(new SplittableRandom(random.nextLong())).timeout(Duration.ZERO)
                    .probability(Fault.FAIL, 0.02).probability(Fault.REPLY_LOST, 0.02)
                    .probability(Fault.DROP, 0.02).build();
            repositories.forEach(r -> r.schedule(faults));
        }

        /**
         * Damages what at most k holders in all hold of the newest checkpoint — fragments, index copies, markers, or
         * everything on the repository — counting the fragments a repair may leave damaged (while at least the
         * reconstruction threshold verify). On a differential store, the same for every committed checkpoint, so
         * that the older segments the newest lists are damaged too, each within its own k; a repository is wiped
         * only if that leaves every one of them within k.
         */
        private void damageWithinK(int cycle) throws IOException {
            Truth truth = new Truth();
            List<String> targets = new ArrayList<>();
            if (chunking == null) {
                targets.add(truth.newestCommitted());
            } else {
                truth.markersVisible.stream().filter(truth.indexes::containsKey)
                        .sorted((a, b) -> compare(b, a)).forEach(targets::add);
            }
            for (String target : targets) {
                damageWithinK(cycle, target, targets);
            }
        }

        private void damageWithinK(int cycle, String target, List<String> targets) throws IOException {
            Truth truth = new Truth();
            FragmentIndex index = truth.indexes.get(target);
            List<String> intact = new ArrayList<>();
            for (int i = 0; i < index.n(); i++) {
                String holder = index.fragments().get(i).repositoryId();
                if (truth.intactFragment(index, i, false) && truth.intactOn(index, holder)) {
                    intact.add(holder);
                }
            }
            // A holder counts as damaged when its fragment, index copy or marker is; a repair restores index copies
            // and markers of the newest checkpoint every time, so there fragments are what can remain damaged.
            int budget = index.k() - (chunking == null ? truth.badFragments(index) : truth.damagedHolders(index));
            Collections.shuffle(intact, new java.util.Random(random.nextLong()));
            int count = budget <= 0 ? 0 : random.nextInt(budget + 1);
            List<String> done = new ArrayList<>();
            for (String holder : intact.subList(0, Math.min(count, intact.size()))) {
                FaultyRepository repository = byId(holder);
                int location = holders(index).indexOf(holder);
                String fragment = index.fragmentKey(index.fragments().get(location).fragmentIndex());
                int kind = random.nextInt(new Truth().wipeKeepsWithinK(holder, target, targets) ? 6 : 5);
                damage(() -> {
                    switch (kind) {
                        case 0 -> repository.corrupt(fragment, random.nextLong());
                        case 1 -> repository.delegate().delete(fragment);
                        case 2 -> repository.corrupt(index.indexKey(), random.nextLong());
                        case 3 -> repository.delegate().delete(index.indexKey());
                        case 4 -> repository.delegate().delete(index.markerKey());
                        default -> wipe(repository);
                    }
                });
                done.add(holder + ":" + List.of("corrupt fragment", "lose fragment", "corrupt index copy",
                        "lose index copy", "lose marker", "lose everything").get(kind));
            }
            history.add("cycle " + cycle + " damages " + done + " of " + target);
        }

        /**
         * After a repair without faults: every holder of the newest checkpoint holds an intact copy of its newest
         * index and a marker, and at least the reconstruction threshold of its fragments verify.
         */
        private void restored(String when) throws IOException {
            Truth truth = new Truth();
            String newest = truth.newestCommitted();
            FragmentIndex index = truth.indexes.get(newest);
            int fragments = 0;
            for (int i = 0; i < index.n(); i++) {
                String holder = index.fragments().get(i).repositoryId();
                FaultyRepository repository = byId(holder);
                Optional<byte[]> copy = repository.delegate().get(index.indexKey());
                assertTrue(copy.isPresent() && index.equals(parseOrNull(copy.get())), when + ": the index copy on "
                        + holder + " was not restored: " + truth);
                assertTrue(repository.delegate().get(index.markerKey()).isPresent(), when + ": the marker on "
                        + holder + " was not restored");
                if (truth.intactFragment(index, i, false)) {
                    fragments++;
                }
            }
            assertTrue(fragments >= store.reconstructionThreshold(), when + ": " + fragments + " fragments verify, "
                    + "fewer than the threshold " + store.reconstructionThreshold());
        }

        private void mustRecoverNewest(String when) throws IOException {
            Truth truth = new Truth();
            String newest = truth.newestCommitted();
            Long commitPoint = model.commitPoints.get(newest);
            assertTrue(commitPoint != null && (newest.equals(prefix(lastCommitted)) || commitPoint > lastReturned),
                    when + ": the newest committed checkpoint " + newest + " is older than the last committed "
                            + lastCommitted);
            RecoveredCheckpoint recovered;
            try {
                recovered = store.recover(JOB).orElseThrow(() -> new AssertionError(when + ": no checkpoint"));
            } catch (CheckpointStoreException e) {
                throw new AssertionError(when + ": " + e.getMessage() + "; " + truth, e);
            }
            assertTrue(prefix(recovered.index()).equals(newest), when + ": recovered " + recovered.index()
                    + " instead of " + newest);
            assertArrayEquals(expected(recovered), recovered.toByteArray(), when);
        }

        private FaultyRepository byId(String id) {
            return repositories.stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
        }

        private static List<String> holders(FragmentIndex index) {
            return index.fragments().stream().map(FragmentLocation::repositoryId).toList();
        }

        /** What the repositories really hold, read past the faults. */
        private final class Truth {
            /** {@code repository/key} of every object on every repository. */
            final Set<String> present = new HashSet<>();
            /** The prefixes with a marker on a repository that answers. */
            final Set<String> markersVisible = new HashSet<>();
            /** Every prefix with a marker on any repository. */
            final Set<String> markersAnywhere = new HashSet<>();
            /** The newest readable index of each prefix, from repositories that answer. */
            final TreeMap<String, FragmentIndex> indexes = new TreeMap<>();
            /** Every readable index copy of each prefix, from any repository. */
            final Map<String, List<FragmentIndex>> allIndexes = new HashMap<>();

            Truth() throws IOException {
                for (FaultyRepository repository : repositories) {
                    for (String key : repository.delegate().list(JOB + ".")) {
                        present.add(repository.id() + "/" + key);
                        String prefix = prefix(key);
                        if (key.endsWith(".ok")) {
                            markersAnywhere.add(prefix);
                            if (repository.isReachable()) {
                                markersVisible.add(prefix);
                            }
                        } else if (key.endsWith(".idx")) {
                            try {
                                FragmentIndex index = FragmentIndex.parse(repository.delegate().get(key)
                                        .orElseThrow());
                                allIndexes.computeIfAbsent(prefix, p -> new ArrayList<>()).add(index);
                                if (repository.isReachable()) {
                                    indexes.merge(prefix, index, (a, b) -> a.revision() >= b.revision() ? a : b);
                                }
                            } catch (CorruptIndexException e) {
                                // An unreadable copy: the store cannot use it either.
                            }
                        }
                    }
                }
            }

            /**
             * {@code repository/key} of the fragments of {@code index} where its newest readable revision puts them.
             */
            Set<String> currentFragments(FragmentIndex index) {
                FragmentIndex current = indexes.getOrDefault(prefix(index), index);
                Set<String> keys = new HashSet<>();
                for (FragmentLocation location : current.fragments()) {
                    String key = location.repositoryId() + "/" + current.fragmentKey(location.fragmentIndex());
                    if (present.contains(key)) {
                        keys.add(key);
                    }
                }
                return keys;
            }

            /** Whether a checkpoint whose commit point came after {@code time} can be rebuilt from what answers. */
            boolean laterRebuildable(long time) {
                for (String prefix : markersAnywhere) {
                    Long commitPoint = model.commitPoints.get(prefix);
                    FragmentIndex other = indexes.get(prefix);
                    if (commitPoint != null && commitPoint > time && other != null && rebuildable(other, true)) {
                        return true;
                    }
                }
                return false;
            }

            boolean lastVisible() {
                return lastCommitted != null && markersVisible.contains(prefix(lastCommitted));
            }

            /** The newest checkpoint with a visible marker. */
            String newestCommitted() {
                return markersVisible.stream().max(StoreFaultPropertiesTest::compare).orElseThrow(
                        () -> new AssertionError("no committed checkpoint is visible: " + this));
            }

            /**
             * Whether recovery must return a checkpoint: the last committed one's marker is visible and every
             * committed checkpoint from it on that is visible can be rebuilt from the repositories that answer.
             */
            boolean mustRecover() {
                if (!lastVisible()) {
                    return false;
                }
                for (String prefix : markersVisible) {
                    if (compare(prefix, prefix(lastCommitted)) >= 0) {
                        FragmentIndex index = indexes.get(prefix);
                        if (index == null || !rebuildable(index, true)) {
                            return false;
                        }
                    }
                }
                return true;
            }

            /** Whether a readable copy of the index of {@code prefix}, on any repository, has m intact fragments. */
            boolean rebuildableFromAll(String prefix) {
                for (FragmentIndex index : allIndexes.getOrDefault(prefix, List.of())) {
                    if (rebuildable(index, false)) {
                        return true;
                    }
                }
                return false;
            }

            /**
             * Whether the fragment and index copy of {@code index} on {@code holder} are intact, and its marker there.
             */
            boolean intactOn(FragmentIndex index, String holder) {
                FaultyRepository repository = byId(holder);
                try {
                    Optional<byte[]> copy = repository.delegate().get(index.indexKey());
                    return intactFragment(index, holders(index).indexOf(holder), false)
                            && copy.isPresent() && index.equals(parseOrNull(copy.get()))
                            && repository.delegate().get(index.markerKey()).isPresent();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            private boolean rebuildable(FragmentIndex index, boolean reachableOnly) {
                if (index.isDifferential()) {
                    return rebuildsDifferential(index, reachableOnly);
                }
                int intact = 0;
                for (int i = 0; i < index.n(); i++) {
                    if (intactFragment(index, i, reachableOnly)) {
                        intact++;
                    }
                }
                return intact >= index.m();
            }

            /** How many fragments of {@code index} are missing or damaged. */
            int badFragments(FragmentIndex index) {
                int bad = 0;
                for (int i = 0; i < index.n(); i++) {
                    if (!intactFragment(index, i, false)) {
                        bad++;
                    }
                }
                return bad;
            }

            /** How many holders of {@code index} lack an intact fragment, index copy or marker of it. */
            int damagedHolders(FragmentIndex index) {
                int damaged = 0;
                for (String holder : holders(index)) {
                    if (!intactOn(index, holder)) {
                        damaged++;
                    }
                }
                return damaged;
            }

            /**
             * Whether wiping {@code holder}, a holder of {@code target} within its budget, leaves at most k damaged
             * holders of each other checkpoint of {@code prefixes}.
             */
            boolean wipeKeepsWithinK(String holder, String target, List<String> prefixes) {
                for (String prefix : prefixes) {
                    FragmentIndex index = indexes.get(prefix);
                    if (!prefix.equals(target) && index != null && holders(index).contains(holder)
                            && intactOn(index, holder) && damagedHolders(index) >= index.k()) {
                        return false;
                    }
                }
                return true;
            }

            private boolean intactFragment(FragmentIndex index, int position, boolean reachableOnly) {
                FragmentLocation location = index.fragments().get(position);
                FaultyRepository repository = byId(location.repositoryId());
                try {
                    Optional<byte[]> bytes = repository.delegate().get(index.fragmentKey(location.fragmentIndex()));
                    return (repository.isReachable() || !reachableOnly) && bytes.isPresent()
                            && location.sha256().matches(bytes.get());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public String toString() {
                return "last committed " + lastCommitted + (lastVisible() ? " (marker visible)" : " (no marker "
                        + "visible)") + ", committed and visible " + markersVisible + ", readable indexes "
                        + indexes.keySet() + ", damaged by the test " + model.damaged;
            }
        }

        private static FragmentIndex parseOrNull(byte[] bytes) {
            try {
                return FragmentIndex.parse(bytes);
            } catch (CorruptIndexException e) {
                return null;
            }
        }
    }
}
