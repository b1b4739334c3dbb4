package io.github.volpex.testkit.selftest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CheckpointStoreException;
import io.github.volpex.checkpoint.store.CheckpointUnavailableException;
import io.github.volpex.checkpoint.store.CorruptIndexException;
import io.github.volpex.checkpoint.store.EpochSource;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.store.FragmentLocation;
import io.github.volpex.checkpoint.store.FragmentRepository;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.checkpoint.store.RepositoriesUnreachableException;
import io.github.volpex.checkpoint.store.Sha256;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testkit.Fault;
import io.github.volpex.testkit.FaultSchedule;
import io.github.volpex.testkit.FaultyRepository;
import io.github.volpex.testkit.RandomFaults;
import io.github.volpex.testkit.SimulatedCrash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The store's guarantee under random sequences of commits, recoveries, repairs, collections, lease renewals and
 * process restarts, in both modes, while repositories fail, time out, lose replies, drop writes silently, get
 * corrupted, lose their data, become unreachable and come back, and processes crash at any call.
 *
 * <p>Let <i>L</i> be the last checkpoint whose commit returned. After every operation, and at every recovery:
 * recovery never returns bytes other than those of a commit that reached its commit point, never one older than
 * <i>L</i> while a commit marker of <i>L</i> is visible, never "no checkpoint" while <i>L</i>'s marker is visible or
 * a repository is unreachable, and returns a checkpoint whenever <i>L</i>'s marker is visible and every committed
 * checkpoint from <i>L</i> on that is visible can be rebuilt from the repositories that answer. The ground truth is
 * computed from what the repositories really store.
 */
class StoreFaultPropertiesTest {

    private static final String JOB = "job";

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

    @Property(tries = 700)
    void ephemeral(@ForAll("operations") List<Integer> operations, @ForAll long seed) throws IOException {
        new World(Mode.EPHEMERAL, seed).run(operations);
    }

    @Property(tries = 700)
    void perennial_systematic(@ForAll("operations") List<Integer> operations, @ForAll long seed)
            throws IOException {
        new World(Mode.SYSTEMATIC, seed).run(operations);
    }

    @Property(tries = 700)
    void perennial_rabin(@ForAll("operations") List<Integer> operations, @ForAll long seed) throws IOException {
        new World(Mode.RABIN, seed).run(operations);
    }

    @Provide
    Arbitrary<List<Integer>> operations() {
        return Arbitraries.integers().between(0, 99).list().ofMinSize(1).ofMaxSize(40);
    }

    /** The repositories, the current process and the ground truth of one run. */
    private static final class World {
        private final Mode mode;
        private final SplittableRandom random;
        private final List<FaultyRepository> repositories = new ArrayList<>();
        /** A monotone epoch counter outside the processes, as a coordination service keeps. */
        private final EpochSource epochs = new CounterEpochs();
        /** The bytes of every commit attempted, by their digest. */
        private final Map<Sha256, byte[]> attempted = new HashMap<>();
        private CheckpointStore store;
        private FaultSchedule faults = FaultSchedule.none();
        /** The last checkpoint whose commit returned. */
        private FragmentIndex lastCommitted;

        World(Mode mode, long seed) {
            this.mode = mode;
            this.random = new SplittableRandom(seed);
            for (int i = 0; i < mode.repositories; i++) {
                repositories.add(FaultyRepository.wrap(FragmentRepository.inMemory("r" + i)));
            }
            restart();
        }

        void run(List<Integer> operations) throws IOException {
            for (int code : operations) {
                step(code);
            }
            checkRecovery("at the end");
        }

        private void restart() {
            faults = FaultSchedule.none();
            repositories.forEach(r -> r.schedule(faults));
            CheckpointStore.Builder builder = mode.codec == null ? CheckpointStore.ephemeral(repositories)
                    : CheckpointStore.perennial(mode.codec, repositories);
            store = builder.random(new SplittableRandom(random.nextLong())).segmentBytes(32).epochs(epochs)
                    .lease(Duration.ofDays(365)).build();
        }

        private void step(int code) throws IOException {
            if (code < 30) {
                byte[] data = new byte[random.nextInt(200)];
                random.nextBytes(data);
                attempted.put(Sha256.of(data), data);
                storeCall(() -> {
                    lastCommitted = store.commit(JOB, data);
                });
            } else if (code < 45) {
                checkRecovery("recovery");
            } else if (code < 53) {
                storeCall(() -> store.repair(JOB));
            } else if (code < 60) {
                storeCall(() -> store.collectGarbage(JOB));
            } else if (code < 64) {
                storeCall(() -> store.renewLease(JOB, Duration.ofDays(365)));
            } else if (code < 70) {
                restart();
            } else if (code < 78) {
                pick().setReachable(false);
            } else if (code < 88) {
                pick().setReachable(true);
            } else if (code < 94) {
                FaultyRepository repository = pick();
                List<String> keys = repository.delegate().list("");
                if (!keys.isEmpty()) {
                    repository.corrupt(keys.get(random.nextInt(keys.size())), random.nextLong());
                }
            } else if (code < 96) {
                FragmentRepository lost = pick().delegate();
                for (String key : lost.list("")) {
                    lost.delete(key);
                }
            } else {
                setFaults();
            }
            checkRecovery("after step " + code);
        }

        private FaultyRepository pick() {
            return repositories.get(random.nextInt(repositories.size()));
        }

        /** Gives the current process a new schedule: no faults, light or heavy ones, maybe a crash point. */
        private void setFaults() {
            int level = random.nextInt(3);
            RandomFaults.Builder builder = RandomFaults.builder(new SplittableRandom(random.nextLong()))
                    .timeout(Duration.ZERO);
            double scale = level == 0 ? 0 : level == 1 ? 0.02 : 0.08;
            for (Fault fault : List.of(Fault.FAIL, Fault.TIMEOUT, Fault.REPLY_LOST, Fault.DROP)) {
                builder.probability(fault, scale);
            }
            if (random.nextBoolean()) {
                builder.crashAtCall(1 + random.nextInt(120));
            }
            faults = builder.build();
            repositories.forEach(r -> r.schedule(faults));
        }

        private interface StoreCall {
            void run();
        }

        /**
         * Runs an operation of the current process; a crash restarts it, a typed failure is allowed. Whatever the
         * operation deletes of the last committed checkpoint, a newer committed one that can be rebuilt must exist.
         */
        private void storeCall(StoreCall call) throws IOException {
            FragmentIndex before = lastCommitted;
            Set<String> held = before == null ? Set.of() : new Truth().currentFragments(before);
            try {
                call.run();
            } catch (SimulatedCrash crash) {
                restart();
            } catch (CheckpointStoreException expected) {
                // Allowed: the store reported what it could not do.
            }
            if (!held.isEmpty()) {
                Truth after = new Truth();
                Set<String> gone = new HashSet<>(held);
                gone.removeAll(after.presentKeys());
                if (!gone.isEmpty()) {
                    assertTrue(after.newerRebuildable(before), "deleted " + gone + " of the last committed " + before
                            + " while no newer committed checkpoint can be rebuilt: " + after);
                }
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
                byte[] expected = attempted.get(checkpoint.index().checkpointSha256());
                if (expected == null) {
                    fail(when + ": recovered bytes of no commit: " + checkpoint.index());
                }
                assertArrayEquals(expected, checkpoint.toByteArray(), when + ": recovered bytes differ");
                assertTrue(truth.markerAnywhere(checkpoint.index()), when + ": recovered a checkpoint that never "
                        + "reached its commit point: " + checkpoint.index());
                if (truth.lastVisible()) {
                    assertTrue(compare(checkpoint.index(), lastCommitted) >= 0, when + ": recovered "
                            + checkpoint.index() + ", older than the last committed " + lastCommitted);
                }
            } finally {
                repositories.forEach(r -> r.schedule(faults));
            }
        }

        /** The order of checkpoints: epoch, sequence, commit id unsigned. */
        private static int compare(FragmentIndex a, FragmentIndex b) {
            int byEpoch = Long.compare(a.epoch(), b.epoch());
            if (byEpoch != 0) {
                return byEpoch;
            }
            int bySequence = Long.compare(a.sequence(), b.sequence());
            return bySequence != 0 ? bySequence : Long.compareUnsigned(a.commitId(), b.commitId());
        }

        /** What the repositories really hold, read past the faults. */
        private final class Truth {
            /** The prefixes ({@code job.epoch.sequence.commit.}) with a marker on a repository that answers. */
            final Set<String> markersVisible = new HashSet<>();
            /** Every prefix with a marker on any repository. */
            final Set<String> markersAnywhere = new HashSet<>();
            /** The newest readable index of each prefix, from repositories that answer. */
            final TreeMap<String, FragmentIndex> indexes = new TreeMap<>();

            Truth() throws IOException {
                for (FaultyRepository repository : repositories) {
                    for (String key : repository.delegate().list(JOB + ".")) {
                        present.add(repository.id() + "/" + key);
                        String prefix = key.substring(0, key.lastIndexOf('.') + 1);
                        if (key.endsWith(".ok")) {
                            markersAnywhere.add(prefix);
                            if (repository.isReachable()) {
                                markersVisible.add(prefix);
                            }
                        } else if (key.endsWith(".idx") && repository.isReachable()) {
                            try {
                                FragmentIndex index = FragmentIndex.parse(repository.delegate().get(key)
                                        .orElseThrow());
                                indexes.merge(prefix, index, (a, b) -> a.revision() >= b.revision() ? a : b);
                            } catch (CorruptIndexException e) {
                                // An unreadable copy: the store cannot use it either.
                            }
                        }
                    }
                }
            }

            /** {@code repository/key} of every object on every repository. */
            final Set<String> present = new HashSet<>();

            Set<String> presentKeys() {
                return present;
            }

            /** {@code repository/key} of the fragments of {@code index} where its newest readable revision puts them. */
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

            /** Whether a committed checkpoint newer than {@code index} can be rebuilt from what answers. */
            boolean newerRebuildable(FragmentIndex index) {
                for (String prefix : markersAnywhere) {
                    FragmentIndex other = indexes.get(prefix);
                    if (other != null && compare(other, index) > 0 && rebuildable(other)) {
                        return true;
                    }
                }
                return false;
            }

            boolean markerAnywhere(FragmentIndex index) {
                return markersAnywhere.contains(prefix(index));
            }

            boolean lastVisible() {
                return lastCommitted != null && markersVisible.contains(prefix(lastCommitted));
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
                    FragmentIndex index = indexes.get(prefix);
                    if (index == null) {
                        return false;
                    }
                    if (compare(index, lastCommitted) >= 0 && !rebuildable(index)) {
                        return false;
                    }
                }
                return true;
            }

            private boolean rebuildable(FragmentIndex index) {
                int intact = 0;
                for (FragmentLocation location : index.fragments()) {
                    FaultyRepository repository = repositories.stream()
                            .filter(r -> r.id().equals(location.repositoryId())).findFirst().orElseThrow();
                    try {
                        String key = index.fragmentKey(location.fragmentIndex());
                        Optional<byte[]> bytes = repository.delegate().get(key);
                        if (repository.isReachable() && bytes.isPresent() && location.sha256().matches(bytes.get())) {
                            intact++;
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return intact >= index.m();
            }

            private String prefix(FragmentIndex index) {
                String key = index.markerKey();
                return key.substring(0, key.length() - "ok".length());
            }

            @Override
            public String toString() {
                return "last committed " + lastCommitted + (lastVisible() ? " (marker visible)" : " (no marker "
                        + "visible)") + ", committed and visible " + markersVisible + ", readable indexes "
                        + indexes.keySet();
            }
        }
    }
}
