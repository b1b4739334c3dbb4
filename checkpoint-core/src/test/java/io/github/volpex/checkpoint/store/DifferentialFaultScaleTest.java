package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.Scale;
import io.github.volpex.testsupport.SearchDepth;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Long histories of differential checkpoints of one job in which the faults strike inside the store's operations, not
 * between them, and combine over hundreds and thousands of rounds. Each round changes the state by a random pattern
 * (as {@link DifferentialScaleTest} does) and commits it — from an array, from a stream, or as one to three
 * asynchronous commits accepted at once (so that the middle ones are superseded) and then persisted — and now and then
 * collects garbage or repairs the job; into those operations, at repository calls drawn from the seed, go:
 * <ul>
 *   <li>calls that fail (one to three in a row, or now and then a burst of up to 15 that fails a whole step of a
 *       commit), as requests to a host that does not answer do;</li>
 *   <li>a write that reports success but stores nothing (a fragment, an index copy, a marker or a repair's
 *       fragment);</li>
 *   <li>a crash of the process, before a call takes effect or after it took effect but before its reply: the store is
 *       abandoned, its executor never runs again, and a new store is built on the same repositories;</li>
 *   <li>a fragment of a checkpoint present deleted behind the store's back (a host losing its disk), while at most
 *       {@code k − 1} of any checkpoint's {@code n} fragments are missing where its index copies record them, so that
 *       an outage on top stays within the {@code k} losses a checkpoint tolerates; repairs (with the reconstruction
 *       threshold at {@code n}) give that budget back;</li>
 *   <li>the bytes of a fragment damaged behind the store's back, counted with the losses above (a checkpoint with a
 *       fragment missing or damaged, or an index copy damaged, gets no more): a byte flipped anywhere, a byte in every
 *       piece (each piece's CRC-32C tells), or a byte in every piece with the CRCs recomputed (only the fragment's
 *       SHA-256 tells); and now and then one of a checkpoint's index copies damaged, while another is readable;</li>
 *   <li>in a quarter of the asynchronous rounds (fixed-size history), a close of the store while one to three
 *       commits persist or wait: the executor runs none, some or all of its tasks first, or a thread of its own runs
 *       them until a repository call hangs, so that close's bound (0 to 20 ms) expires with a persist in flight; the
 *       call answers once close returned, and a new store is built on the hosts, as after a crash;</li>
 *   <li>the deletes of one host failing, or reporting success and keeping the object (a delete dropped on the way),
 *       from a call on: halfway through a collection, through the deletes a commit makes of what it replaces, or
 *       through those of a commit that gives up;</li>
 *   <li>one host out (an outage) from a call of one round to a call of a round one to five rounds later, while the
 *       job has two hosts more than fragments, so that commits go on.</li>
 * </ul>
 * After every round, with the faults paused (an outage goes on): a new store recovers, and every tenth round the store
 * that ran the round too, byte for byte, the state of the last commit that returned (or whose stage completed
 * successfully) or of a later one whose outcome is unknown (it failed saying it may have reached its commit point, or
 * crashed, or its stage never completed) — never an older state (nor, while every host is in, one older than a state
 * recovered before with every host in), never one whose commit failed saying it never reached its commit point (a stage
 * that close abandoned before its commit point included) or that its process died accepting, never bytes of no state
 * (whatever bytes were damaged), and never nothing. A close returns within its bound (plus a minute's slack: it never
 * hangs), every stage is complete once it returned, close reports each one it abandoned, and from then on the closed
 * store writes nothing of a commit that had not started and no marker of one abandoned before its commit point (its
 * contract: a started commit stops at its next step, one past its commit point may complete; it does not promise that
 * no repository call starts after close returned), and deletes only objects of a commit that had started, unless one
 * of its commits returned or was abandoned past its commit point: the commit protocol deletes older checkpoints and
 * failed commits' leftovers only as its last step, after the commit point ({@code commitAsync}: "deleting the
 * checkpoints it replaces follow[s]"), a commit that had not started "never writes anything", and "the job's previous
 * checkpoint is intact either way" — so no one else's object is deleted for a commit that never reached its commit
 * point. A damaged index copy never parses. An operation fails only in a
 * round in which a fault took effect (a call failed, dropped its write or crashed, a fragment was lost or damaged, an
 * outage began: a delete that fails or vanishes is no reason), or for want of an epoch while a host is out. A commit
 * that returned, with no fragment lost in its round, has its {@code n} fragments where its index says and {@code k + 1}
 * markers; and every segment its manifest lists has its {@code n} fragments where the newest copy of that segment's
 * index records them, unless a fragment was lost after the commit's last listing of the job (which the store documents
 * it cannot see: a segment that lost fragments before that listing must no longer be referred to). No checkpoint with a
 * commit marker stored lacks a readable index copy or more than {@code k} of its fragments (the package's "a checkpoint
 * never counts without what it needs, even when deletes fail"), save one whose every marker is on a host that held it
 * when the host went out or failed to list it since the last quiet check: an operation deletes a checkpoint from the
 * hosts it listed, and leaves a marker it did not see on the others (collected later). Every other index copy parses.
 * Each history must see crashes (in commits too), failed operations, fragments lost, writes dropped, deletes failed or
 * vanished, recoveries of a commit whose outcome is unknown, fragments and index copies damaged and damage repaired,
 * and the fixed-size one closes, a close with a persist hung, and stages abandoned, of a commit that had started too.
 * Every 50 rounds and at the end, the faults stop and the outage ends: a collection must leave, of everything older
 * than the newest committed checkpoint, exactly the segments its manifest lists (whatever is newer belongs to commits
 * that failed or crashed, which the store documents it may keep until a newer checkpoint is durable); one fragment or
 * index copy of those is damaged, and a repair must rewrite every damaged object of the newest checkpoint and the
 * segments it lists that is where the newest readable revision of its index records it (a fragment on its holder, an
 * index copy on a holder: a copy an older revision left elsewhere is neither repaired nor collected, and stays counted
 * as the checkpoint's damage); then a commit must return, after which every object on every host belongs to that
 * checkpoint or a segment it lists, at most 65 of them, holding at most the space bound (1.25) times the bytes of the
 * state's distinct blocks. And the repository calls of the commits that ran with no fault and no outage (from arrays)
 * do not grow with the history: the median of the last quarter of them is at most 1.5 times that of the first quarter
 * after round 50 (plus 20 calls).
 *
 * <p>Two histories: fixed-size blocks with arrays, streams and asynchronous commits; content-defined chunking, whose
 * states also see insertions and deletions in the middle, with arrays and streams.
 *
 * <p>Sizes for CI: 2,000 rounds in fixed-size blocks and 700 content-defined (about 5 s on two cores);
 * {@code -Pscale}, or a search factor above 1, runs 20,000 and 6,000 (about 35 s; {@code -Dvolpex.search.factor=N}:
 * for {@code N} seeds). The seed is new each run and named in every failure, with the round; replay with
 * {@code -Dvolpex.differential.faultscale.seed=<seed>}.
 */
class DifferentialFaultScaleTest {

    private static final String JOB = "job";
    private static final boolean LONG = Scale.full() || SearchDepth.deep();
    private static final String SEED_PROPERTY = "volpex.differential.faultscale.seed";
    private static final int BLOCK = Chunking.MIN_BLOCK_BYTES;
    private static final int M = 4;
    private static final int K = 2;
    private static final int N = M + K;
    /** Two hosts more than fragments: a commit places its fragments while one host is out. */
    private static final int HOSTS = N + 2;
    private static final double BOUND = 1.25;
    private static final int QUIET_EVERY = 50;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void faultsInsideCommitsCollectionsAndRepairsOfFixedSizeCheckpoints() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1,
                seed -> new History(Chunking.fixed(BLOCK), false, true, seed).run(LONG ? 20_000 : 2_000));
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void faultsInsideCommitsCollectionsAndRepairsOfContentDefinedCheckpoints() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1,
                seed -> new History(Chunking.contentDefined(BLOCK), true, false, seed).run(LONG ? 6_000 : 700));
    }

    /**
     * A process's executor whose tasks wait until {@link #drain}; the store's waiting thread runs its calls itself.
     * One thread drains it at a time (the test's, or one that runs a store's persists while the test closes it).
     */
    private static final class Deferred implements Executor {
        private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable task) {
            tasks.add(task);
        }

        private synchronized Runnable poll() {
            return tasks.poll();
        }

        private synchronized void clear() {
            tasks.clear();
        }

        /** Runs every task, those queued meanwhile included; after a crash the rest is dropped. */
        void drain(Injector injector) {
            drain(injector, Integer.MAX_VALUE);
        }

        /** Runs up to {@code count} tasks, those queued meanwhile included; after a crash the rest is dropped. */
        void drain(Injector injector, int count) {
            int ran = 0;
            for (Runnable task = ran < count ? poll() : null; task != null; task = ++ran < count ? poll() : null) {
                try {
                    task.run();
                } catch (Stores.Crash e) {
                    clear();
                    return;
                }
                if (injector.dead) {
                    clear();
                    return;
                }
            }
        }
    }

    /**
     * The states committed, in order: those after the last commit known durable are kept whole, older ones only by a
     * hash that tells a recovery of an older state from bytes of no state at all.
     */
    private static final class Truth {
        final List<byte[]> states = new ArrayList<>();
        final List<Integer> hashes = new ArrayList<>();
        /** The commits that failed saying they never reached their commit point. */
        final Set<Integer> takenBack = new HashSet<>();
        int durable = -1;

        int accept(byte[] state) {
            states.add(state);
            hashes.add(Arrays.hashCode(state));
            return states.size() - 1;
        }

        void durable(int index) {
            if (index > durable) {
                for (int i = Math.max(0, durable); i < index; i++) {
                    states.set(i, null);
                }
                durable = index;
            }
        }

        /** Records a commit's failure: one that says it never reached its commit point may never be recovered. */
        void failed(int index, Throwable failure) {
            if (failure instanceof CommitFailedException failed && !failed.reachedCommitPoint()) {
                takenBack.add(index);
            }
        }

        /**
         * Checks that {@code recovered} is the durable state or a later one that may have reached its commit point;
         * returns the index of the commit it is.
         */
        int judge(byte[] recovered, String where) {
            for (int i = states.size() - 1; i >= Math.max(0, durable); i--) {
                if (Arrays.equals(states.get(i), recovered)) {
                    if (takenBack.contains(i)) {
                        // The same bytes may have been committed again since: only a match to no other counts.
                        continue;
                    }
                    return i;
                }
            }
            int hash = Arrays.hashCode(recovered);
            for (int i = states.size() - 1; i >= Math.max(0, durable); i--) {
                if (takenBack.contains(i) && Arrays.equals(states.get(i), recovered)) {
                    fail("recovered commit " + i + ", which never reached its commit point (it failed saying so, or"
                            + " its process died accepting it; the last durable commit is " + durable + "), " + where);
                }
            }
            for (int i = Math.max(0, durable) - 1; i >= 0; i--) {
                if (hashes.get(i) == hash) {
                    fail("recovered (by its hash) commit " + i + ", older than the last durable commit " + durable
                            + ", " + where);
                }
            }
            fail("recovered " + recovered.length + " bytes of no state committed (the last durable commit is "
                    + durable + "), " + where);
            return -1;
        }
    }

    /** The repository calls of a history, counted, and the faults of the current round. */
    private static final class Injector implements Stores.Faults {
        long calls;
        boolean dead;
        Plan plan;
        /** The round's call at which the calling thread waits for {@link #release} (a host that hangs), or 0. */
        long blockAt;
        /** Counted down when a call waits at {@link #blockAt}. */
        CountDownLatch blocked;
        CountDownLatch release;
        /** Whether a store's close returned: the calls that start from then on go to {@link #afterClose}. */
        boolean closed;
        final List<String[]> afterClose = new ArrayList<>();
        /**
         * What went wrong in a call held at {@link #blockAt} (never released, or interrupted): thrown there, it would
         * reach the store as a failed call and be taken for a failed persist, so it is kept for the test to throw.
         */
        AssertionError failure;

        @Override
        public Stores.Fault next(Stores.Switchable repository, String call, String key) {
            CountDownLatch hold = null;
            Stores.Fault fault;
            synchronized (this) {
                fault = decide(repository, call, key);
                if (closed) {
                    afterClose.add(new String[] {call, key});
                }
                if (plan != null && blockAt > 0 && plan.calls == blockAt) {
                    hold = release;
                    blocked.countDown();
                }
            }
            if (hold != null) {
                AssertionError wrong = null;
                try {
                    if (!hold.await(60, TimeUnit.SECONDS)) {
                        wrong = new AssertionError("a blocked call was never released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    wrong = new AssertionError("interrupted while blocked", e);
                }
                if (wrong != null) {
                    synchronized (this) {
                        failure = failure == null ? wrong : failure;
                    }
                }
            }
            return fault;
        }

        private Stores.Fault decide(Stores.Switchable repository, String call, String key) {
            calls++;
            if (dead) {
                return Stores.Fault.CRASH_BEFORE;
            }
            Plan current = plan;
            if (current == null) {
                return Stores.Fault.NONE;
            }
            Stores.Fault fault = current.next(repository, call, key);
            if (fault == Stores.Fault.CRASH_BEFORE || fault == Stores.Fault.CRASH_AFTER) {
                dead = true;
            }
            return fault;
        }

        @Override
        public synchronized void deleteHit(Stores.Switchable repository, Stores.Switchable.Deletes deletes,
                String key) {
            if (plan != null) {
                // Not a fault an operation may fail of: what a delete leaves, a later one deletes.
                plan.history.deleteHits++;
            }
        }
    }

    /** The faults of one round, at calls counted from the round's start. */
    private static final class Plan {
        final History history;
        long calls;
        long failAt;
        int failCount;
        long dropAt;
        long crashAt;
        Stores.Fault crash;
        long loseAt;
        long damageAt;
        long deletesFailAt;
        int deletesFailOn;
        Stores.Switchable.Deletes deletes;
        long outageAt;
        /** The host that goes out at {@link #outageAt}, or -1 for the host out to come back. */
        int outageOn;
        /** Whether a fault was drawn for this round's calls, whatever it did. */
        boolean fired;
        /**
         * Whether a fault took effect: a call failed, dropped its write or crashed, a fragment was lost, an outage
         * began.
         */
        boolean injected;
        /** Whether a host was out when the round began (its outage may end during the round). */
        boolean wasOut;
        boolean lost;
        /**
         * The hosts whose listing of the job was asked for since the last fragment lost and before the round's first
         * commit marker was written (the commit's last listing precedes its commit point; its deletes list too).
         */
        final Set<String> listedSinceLoss = new HashSet<>();
        boolean markerWritten;
        /** The call at which the round's last fragment was lost. */
        long lastLoss;
        /** The call at which each checkpoint's first fragment was written. */
        final Map<CheckpointId, Long> firstFragment = new HashMap<>();

        Plan(History history) {
            this.history = history;
        }

        Stores.Fault next(Stores.Switchable repository, String call, String key) {
            calls++;
            if (calls == outageAt) {
                fired = true;
                injected |= history.outage(outageOn);
            }
            if (calls == deletesFailAt) {
                fired = true;
                history.hosts.get(deletesFailOn).deletes = deletes;
            }
            if (calls == loseAt) {
                fired = true;
                if (history.loseOne()) {
                    injected = true;
                    history.fragmentsLost++;
                    lost = true;
                    lastLoss = calls;
                    listedSinceLoss.clear();
                }
            }
            if (calls == damageAt) {
                fired = true;
                injected |= history.damageOne();
            }
            if (call.equals("put") && key.endsWith(".ok")) {
                markerWritten = true;
            }
            if (call.equals("put") && StoreKeys.parse(key).kind() == StoreKeys.Kind.FRAGMENT) {
                firstFragment.putIfAbsent(StoreKeys.parse(key).id(), calls);
            }
            if (call.equals("list") && key.equals(StoreKeys.jobPrefix(JOB)) && !markerWritten) {
                listedSinceLoss.add(repository.id());
            }
            if (calls == crashAt) {
                fired = true;
                injected = true;
                return crash;
            }
            if (failAt > 0 && calls >= failAt && calls < failAt + failCount) {
                fired = true;
                injected = true;
                if (call.equals("list")) {
                    history.unseen(repository);
                }
                return Stores.Fault.FAIL;
            }
            if (dropAt > 0 && calls >= dropAt && call.equals("put") && repository.reachable) {
                fired = true;
                injected = true;
                history.drops++;
                dropAt = 0;
                return Stores.Fault.DROP;
            }
            return Stores.Fault.NONE;
        }
    }

    /** One history: its hosts, the store running it (replaced when it crashes) and what it committed. */
    private static final class History {
        final Chunking chunking;
        final boolean shifts;
        final boolean asynchronous;
        final long seed;
        final SplittableRandom random;
        final List<Stores.Switchable> hosts = Stores.Switchable.inMemory(HOSTS);
        final Injector injector = new Injector();
        final Truth truth = new Truth();
        /** The repository calls of commits that ran without faults or outage, by round. */
        final List<long[]> cleanCommits = new ArrayList<>();
        /** A store on the hosts' own repositories, past the faults, to read manifests with. */
        final CheckpointStore raw;
        CheckpointStore store;
        Deferred executor;
        byte[] state;
        int round;
        int rounds;
        /** The host out, or -1; and how many rounds on its outage ends. */
        int out = -1;
        int outRounds;
        /** The calls a round made lately, from which fault calls are drawn. */
        long typicalCalls = 200;
        /** The calls a commit from an array made lately, within which most fragments are lost. */
        long typicalCommitCalls = 60;
        /**
         * The hosts, by checkpoint, that held a commit marker of it when they went out or failed a listing: an
         * operation that deletes the checkpoint from the repositories it listed leaves that marker, which it did not
         * see (the store deletes only index copies and fragments "while no marker it set out to delete may remain").
         * Cleared when a quiet check has shown nothing left over.
         */
        final Map<CheckpointId, Set<String>> unseen = new HashMap<>();
        /** The newest commit recovered while every host was reachable: no later recovery, all reachable, is older. */
        int floor = -1;
        int crashes;
        int lost;
        int fragmentsLost;
        int drops;
        int deleteHits;
        int commitCrashes;
        int unknownRecoveries;
        int failedOperations;
        int quietChecks;
        int fragmentsDamaged;
        int indexCopiesDamaged;
        /** Damaged fragments and index copies that a repair at a quiet check found rewritten. */
        int damageRepaired;
        int closes;
        /** Closes whose bound expired while a persist was blocked in a repository call. */
        int closesBlocked;
        int stagesAbandoned;
        int abandonedStarted;
        int abandonedPastCommitPoint;
        int callsAfterClose;
        /**
         * The fragments and index copies damaged behind the store's back, as "host/key", with the damaged bytes: one
         * whose stored bytes are these is still damaged.
         */
        final Map<String, byte[]> damaged = new HashMap<>();
        final Map<String, byte[]> damagedIndex = new HashMap<>();

        History(Chunking chunking, boolean shifts, boolean asynchronous, long seed) {
            this.chunking = chunking;
            this.shifts = shifts;
            this.asynchronous = asynchronous;
            this.seed = seed;
            this.random = new SplittableRandom(seed);
            hosts.forEach(host -> host.faults = injector);
            raw = CheckpointStore.perennial(IdaCodec.systematic(M, K), hosts.stream().map(h -> h.delegate).toList())
                    .differential(chunking).segmentBytes(16 * BLOCK).build();
        }

        String where() {
            return chunking + ", round " + round + (out >= 0 ? " (r" + out + " out)" : "") + " of " + rounds
                    + (LONG ? " (needs -Pscale)" : "") + ", seed " + seed;
        }

        CheckpointStore newStore(Deferred deferred) {
            return CheckpointStore.perennial(IdaCodec.systematic(M, K), hosts).differential(chunking)
                    .maxSpaceAmplification(BOUND).segmentBytes(16 * BLOCK).reconstructionThreshold(N)
                    .executor(deferred).random(new SplittableRandom(random.nextLong())).build();
        }

        void restart() {
            injector.dead = false;
            executor = new Deferred();
            store = newStore(executor);
        }

        void run(int rounds) throws Exception {
            this.rounds = rounds;
            restart();
            state = Stores.data(random.nextLong(), 96 * BLOCK);
            truth.durable(truth.accept(state));
            store.commit(JOB, state);
            for (round = 1; round <= rounds; round++) {
                round();
                check();
                if (round % QUIET_EVERY == 0 || round == rounds) {
                    quiet();
                }
            }
            int n = cleanCommits.size();
            List<long[]> early = cleanCommits.stream().filter(c -> c[0] >= 50).limit(Math.max(1, n / 4)).toList();
            List<long[]> late = cleanCommits.subList(n - Math.max(1, n / 4), n);
            long earlyMedian = medianCalls(early);
            long lateMedian = medianCalls(late);
            System.out.printf("%s, %d rounds (%d crashes, %d in commits, %d fragments lost in %d rounds, %d writes"
                    + " dropped, %d deletes failed or vanished, %d recoveries of an unknown outcome, %d operations"
                    + " failed, %d quiet checks, %d fragments and %d index copies damaged, %d damaged found rewritten"
                    + " by a repair, %d closes, %d with a persist hung, %d stages abandoned, %d started, %d past their"
                    + " commit point, %d calls after close returned): %d commits without faults, their repository"
                    + " calls, median %d early, %d late, seed %d%n", chunking, rounds, crashes, commitCrashes,
                    fragmentsLost, lost, drops, deleteHits, unknownRecoveries, failedOperations, quietChecks,
                    fragmentsDamaged, indexCopiesDamaged, damageRepaired, closes, closesBlocked, stagesAbandoned,
                    abandonedStarted, abandonedPastCommitPoint, callsAfterClose, n, earlyMedian, lateMedian, seed);
            // Each kind of fault took effect, or the history did not try what it says.
            String what = " (" + crashes + " crashes, " + commitCrashes + " in commits, " + fragmentsLost
                    + " fragments lost, " + drops + " writes dropped, " + deleteHits + " deletes failed or vanished, "
                    + unknownRecoveries + " recoveries of an unknown outcome, " + failedOperations
                    + " operations failed), " + where();
            assertTrue(crashes > 0 && commitCrashes > 0 && failedOperations > 0, "no crash in a commit or no failed"
                    + " operation" + what);
            assertTrue(fragmentsLost > 0 && drops > 0 && deleteHits > 0, "no fragment lost, no write dropped or no"
                    + " delete failed" + what);
            assertTrue(unknownRecoveries > 0, "no recovery returned a commit of unknown outcome" + what);
            assertTrue(fragmentsDamaged > 0 && indexCopiesDamaged > 0 && damageRepaired > 0, "no fragment or no"
                    + " index copy damaged, or no damage repaired (" + fragmentsDamaged + ", " + indexCopiesDamaged
                    + ", " + damageRepaired + ")" + what);
            assertTrue(!asynchronous || closes > 0 && closesBlocked > 0 && stagesAbandoned > 0 && abandonedStarted > 0,
                    "no close, none with a persist hung, or no stage abandoned (started) (" + closes + ", "
                    + closesBlocked + ", " + stagesAbandoned + ", " + abandonedStarted + ")" + what);
            assertTrue(lateMedian <= 1.5 * earlyMedian + 20, "calls per commit grew from a median of " + earlyMedian
                    + " to " + lateMedian + ", " + chunking + ", seed " + seed);
        }

        private long medianCalls(List<long[]> commits) {
            long[] calls = commits.stream().mapToLong(c -> c[1]).toArray();
            return calls.length == 0 ? 0 : DifferentialScaleTest.median(calls, 0, calls.length);
        }

        /** One round: the faults drawn, then a commit and now and then a collection or a repair. */
        void round() {
            Plan plan = draw();
            injector.plan = plan;
            long before = injector.calls;
            int operation = random.nextInt(asynchronous ? 100 : 80);
            long commitCalls = -1;
            if (operation < 50) {
                commitCalls = commit(false);
            } else if (operation < 80) {
                commit(true);
            } else if (random.nextInt(4) == 0) {
                closeDuringPersists(1 + random.nextInt(3));
            } else {
                commitAsync(1 + random.nextInt(3));
            }
            commitCrashes += injector.dead ? 1 : 0;
            if (random.nextInt(6) == 0) {
                attempt(() -> store.collectGarbage(JOB));
            }
            if (random.nextInt(12) == 0) {
                attempt(() -> store.repair(JOB));
            }
            if (!injector.dead) {
                executor.drain(injector);
            }
            injector.plan = null;
            hosts.forEach(host -> host.deletes = Stores.Switchable.Deletes.WORK);
            lost += plan.lost ? 1 : 0;
            if (injector.dead) {
                crashes++;
                restart();
            } else {
                typicalCalls = Math.max(50, (typicalCalls * 3 + injector.calls - before) / 4);
                if (commitCalls >= 0 && !plan.fired && out < 0) {
                    cleanCommits.add(new long[] {round, commitCalls});
                    typicalCommitCalls = (typicalCommitCalls * 3 + commitCalls) / 4;
                }
            }
        }

        /** The faults of the next round; it begins or ends an outage too. */
        Plan draw() {
            Plan plan = new Plan(this);
            plan.wasOut = out >= 0;
            long span = typicalCalls + typicalCalls / 2;
            if (random.nextInt(100) < 15) {
                plan.failAt = 1 + random.nextLong(span);
                // Mostly one to three calls; now and then a burst that fails a whole step (all the markers, say).
                plan.failCount = random.nextInt(3) == 0 ? 4 + random.nextInt(12) : 1 + random.nextInt(3);
            }
            if (random.nextInt(100) < 12) {
                plan.dropAt = 1 + random.nextLong(span);
            }
            if (random.nextInt(100) < 10) {
                plan.crashAt = 1 + random.nextLong(span);
                plan.crash = random.nextBoolean() ? Stores.Fault.CRASH_BEFORE : Stores.Fault.CRASH_AFTER;
            }
            if (random.nextInt(100) < 25) {
                // Mostly inside the commit, where the listing that decides what it refers to happens.
                plan.loseAt = 1 + random.nextLong(random.nextInt(4) == 0 ? span : typicalCommitCalls + 10);
            }
            if (random.nextInt(100) < 8) {
                plan.damageAt = 1 + random.nextLong(random.nextInt(4) == 0 ? span : typicalCommitCalls + 10);
            }
            if (random.nextInt(100) < 15) {
                plan.deletesFailAt = 1 + random.nextLong(span);
                plan.deletesFailOn = random.nextInt(HOSTS);
                plan.deletes = random.nextBoolean() ? Stores.Switchable.Deletes.FAIL : Stores.Switchable.Deletes.VANISH;
            }
            if (out < 0 && random.nextInt(12) == 0) {
                plan.outageAt = 1 + random.nextLong(span);
                plan.outageOn = random.nextInt(HOSTS);
            } else if (out >= 0 && --outRounds <= 0) {
                plan.outageAt = 1 + random.nextLong(span);
                plan.outageOn = -1;
            }
            return plan;
        }

        /** Records the markers {@code host} holds, which an operation that did not list it may leave behind. */
        void unseen(Stores.Switchable host) {
            try {
                for (String key : host.delegate.list("")) {
                    StoreKeys.Parsed parsed = StoreKeys.parse(key);
                    if (parsed.kind() == StoreKeys.Kind.MARKER) {
                        unseen.computeIfAbsent(parsed.id(), id -> new TreeSet<>()).add(host.id());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * Takes host {@code on} out for one to five rounds, or brings the host out back ({@code on < 0}); returns
         * whether an outage began.
         */
        boolean outage(int on) {
            if (on >= 0 && out < 0) {
                out = on;
                outRounds = 1 + random.nextInt(5);
                hosts.get(on).reachable = false;
                unseen(hosts.get(on));
                return true;
            } else if (on < 0 && out >= 0) {
                hosts.get(out).reachable = true;
                out = -1;
            }
            return false;
        }

        /** The state's next change; returns the index of the commit of it. */
        private int next() {
            state = DifferentialScaleTest.change(state, random, shifts);
            return truth.accept(state);
        }

        /** Commits the next state from an array or a stream; returns its repository calls if it returned, or -1. */
        long commit(boolean stream) {
            int index = next();
            byte[] bytes = state;
            long before = injector.calls;
            try {
                FragmentIndex committed = stream ? store.commit(JOB, new ByteArrayInputStream(bytes))
                        : store.commit(JOB, bytes);
                long calls = injector.calls - before;
                truth.durable(index);
                if (!injector.plan.lost) {
                    durable(committed);
                }
                // A commit from an array lists the job again after its fragments are verified, before its index
                // copies; one from a stream, once the state has ended and after each round of blocks read back. A
                // fragment lost before that listing began (for an array, before the committed attempt's first
                // fragment was written) must keep its segment from being referred to.
                Plan plan = injector.plan;
                if (!plan.lost || (stream ? plan.listedSinceLoss.size() == HOSTS
                        : plan.lastLoss < plan.firstFragment.getOrDefault(committed.checkpointId(), 0L))) {
                    referredWhole(committed, plan.lost ? "from " + (stream ? "a stream" : "an array") + ", a fragment"
                            + " lost at call " + plan.lastLoss + " of the round, its first fragment written at call "
                            + plan.firstFragment.get(committed.checkpointId()) + ", " + plan.listedSinceLoss.size()
                            + " hosts listed after the loss" : "none lost in the round");
                }
                return stream ? -1 : calls;
            } catch (CommitFailedException e) {
                truth.failed(index, e);
                failed(e);
            } catch (CheckpointStoreException e) {
                throw new AssertionError("a commit failed with " + e.getClass().getSimpleName() + ", which its"
                        + " contract does not name, " + where(), e);
            } catch (Stores.Crash e) {
                assertTrue(injector.dead, "a crash escaped a store that did not die, " + where());
            } catch (IOException e) {
                throw new UncheckedIOException("a byte array stream failed", e);
            }
            return -1;
        }

        /** Accepts {@code count} asynchronous commits at once, then runs the executor. */
        void commitAsync(int count) {
            List<CompletionStage<FragmentIndex>> stages = new ArrayList<>();
            List<Integer> which = new ArrayList<>();
            try {
                for (int i = 0; i < count; i++) {
                    which.add(next());
                    stages.add(store.commitAsync(JOB, state));
                }
            } catch (Stores.Crash e) {
                // Accepting ran a persist on this thread that died.
                assertTrue(injector.dead, "a crash escaped a store that did not die, " + where());
            }
            if (which.size() > stages.size()) {
                // The commit being accepted when the process died got no stage: it never ran, so never counts.
                truth.takenBack.add(which.get(which.size() - 1));
            }
            if (!injector.dead) {
                executor.drain(injector);
            }
            FragmentIndex last = null;
            for (int i = 0; i < stages.size(); i++) {
                CompletableFuture<FragmentIndex> future = stages.get(i).toCompletableFuture();
                if (!future.isDone()) {
                    assertTrue(injector.dead, "a stage undecided though its process lives, " + where());
                    continue;
                }
                try {
                    last = future.join();
                    truth.durable(which.get(i));
                } catch (CompletionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof Stores.Crash) {
                        assertTrue(injector.dead, "a crash failed a stage of a store that did not die, " + where());
                    } else if (cause instanceof CheckpointStoreException failure) {
                        truth.failed(which.get(i), failure);
                        if (!(failure instanceof CommitSupersededException)) {
                            failed(failure);
                        }
                    } else {
                        throw new AssertionError("a stage failed with " + cause + ", " + where(), cause);
                    }
                }
            }
            // (Only the last: the stages after an earlier one deleted it if it lists nothing of it.)
            if (last != null && !injector.plan.lost && !injector.dead) {
                durable(last);
                referredWhole(last, "none lost in the round");
            }
        }

        /**
         * Accepts {@code count} asynchronous commits, then closes the store while they persist or wait: the executor
         * runs none, some or all of its tasks first, or a thread of its own runs them until a repository call hangs
         * (a host that does not answer), so that close's bound expires with a persist in flight. Close returns within
         * its bound (plus a generous slack), every stage is complete once it returned — successfully (a returned
         * commit), superseded, failed by a fault, or abandoned — and after it returned the closed store writes
         * nothing of a commit that had not started, and no marker of one abandoned before its commit point (close's
         * contract: such a commit "stops at its next step", "before its commit point, so that it never counts"; it
         * does not promise that no call at all starts after close returned: a started commit runs to its next step,
         * and one past its commit point may complete and finish). A new store is then built on the hosts, as after
         * a crash.
         */
        void closeDuringPersists(int count) {
            closes++;
            Plan plan = injector.plan;
            // A close, not a crash: the process lives on.
            plan.crashAt = 0;
            List<CompletionStage<FragmentIndex>> stages = new ArrayList<>();
            List<Integer> which = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                which.add(next());
                stages.add(store.commitAsync(JOB, state));
            }
            boolean hang = random.nextBoolean();
            Duration maxWait = Duration.ofMillis(random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(hang ? 20 : 3));
            Thread worker = null;
            Throwable[] escaped = new Throwable[1];
            Set<Long> started = new HashSet<>();
            Set<Long> pastCommitPoint = new HashSet<>();
            Set<Long> succeeded = new HashSet<>();
            FragmentIndex last = null;
            try {
                if (hang) {
                    CountDownLatch ready = new CountDownLatch(1);
                    synchronized (injector) {
                        injector.blockAt = plan.calls + 1 + random.nextLong(count * (typicalCommitCalls + 10));
                        injector.blocked = ready;
                        injector.release = new CountDownLatch(1);
                    }
                    worker = new Thread(() -> {
                        try {
                            executor.drain(injector);
                        } catch (Throwable t) {
                            escaped[0] = t;
                        } finally {
                            ready.countDown();
                        }
                    }, "closed-store-executor");
                    // Never keeps the JVM alive, whatever a failure leaves it waiting for.
                    worker.setDaemon(true);
                    worker.start();
                    try {
                        assertTrue(ready.await(60, TimeUnit.SECONDS), "the executor neither blocked nor ended, "
                                + where());
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                } else {
                    executor.drain(injector, random.nextInt(count + 1));
                }
                boolean inFlight;
                synchronized (injector) {
                    inFlight = hang && plan.calls >= injector.blockAt;
                }
                closesBlocked += inFlight ? 1 : 0;
                long start = System.nanoTime();
                List<AbandonedCommit> abandoned = store.close(maxWait);
                long took = System.nanoTime() - start;
                synchronized (injector) {
                    injector.closed = true;
                }
                assertTrue(took <= maxWait.toNanos() + TimeUnit.SECONDS.toNanos(60), "close(" + maxWait + ") took "
                        + took / 1_000_000 + " ms, " + where());
                int abandonedHere = 0;
                for (int i = 0; i < stages.size(); i++) {
                    CompletableFuture<FragmentIndex> future = stages.get(i).toCompletableFuture();
                    assertTrue(future.isDone(), "stage " + i + " of " + count + " undecided once close returned, "
                            + where());
                    try {
                        last = future.join();
                        truth.durable(which.get(i));
                        succeeded.add(last.sequence());
                    } catch (CompletionException e) {
                        Throwable cause = e.getCause();
                        truth.failed(which.get(i), cause);
                        if (cause instanceof CommitAbandonedException why) {
                            stagesAbandoned++;
                            abandonedHere++;
                            assertTrue(abandoned.contains(new AbandonedCommit(JOB, why.sequence(), why.started(),
                                    why.reachedCommitPoint())), "close did not report " + why + ", " + where());
                            if (why.started()) {
                                abandonedStarted++;
                                started.add(why.sequence());
                            }
                            if (why.reachedCommitPoint()) {
                                abandonedPastCommitPoint++;
                                pastCommitPoint.add(why.sequence());
                            }
                        } else if (cause instanceof CheckpointStoreException failure) {
                            if (!(failure instanceof CommitSupersededException)) {
                                failed(failure);
                            }
                        } else {
                            throw new AssertionError("a stage failed with " + cause + ", " + where(), cause);
                        }
                    }
                }
                assertEquals(abandonedHere, abandoned.size(), "close reported " + abandoned + " abandoned, "
                        + where());
            } finally {
                // The hung call answers, and whatever the closed store's executor still runs, runs: also when a
                // check above failed, so that no thread is left waiting to run a closed store's persist later.
                releaseAndJoin(worker);
            }
            assertTrue(worker == null || !worker.isAlive(), "the closed store's executor never ended, " + where());
            if (escaped[0] != null) {
                throw new AssertionError("the closed store's executor failed, " + where(), escaped[0]);
            }
            synchronized (injector) {
                if (injector.failure != null) {
                    AssertionError failure = injector.failure;
                    injector.failure = null;
                    throw new AssertionError("a held repository call went wrong, " + where(), failure);
                }
            }
            executor.drain(injector);
            List<String[]> after;
            synchronized (injector) {
                injector.closed = false;
                injector.release = null;
                injector.blocked = null;
                after = new ArrayList<>(injector.afterClose);
                injector.afterClose.clear();
            }
            callsAfterClose += after.size();
            boolean finishing = !succeeded.isEmpty() || !pastCommitPoint.isEmpty();
            for (String[] call : after) {
                StoreKeys.Parsed parsed = StoreKeys.parse(call[1]);
                if (call[0].equals("list") || call[0].equals("get") || parsed == null) {
                    continue;
                }
                long sequence = parsed.id().sequence();
                boolean own = started.contains(sequence) || succeeded.contains(sequence);
                if (call[0].equals("put")) {
                    assertTrue(own, "after close returned, the closed store wrote " + call[1] + ", of no commit"
                            + " that had started, " + where());
                    assertTrue(parsed.kind() != StoreKeys.Kind.MARKER || succeeded.contains(sequence)
                            || pastCommitPoint.contains(sequence), "after close returned, the closed store wrote"
                            + " marker " + call[1] + " of a commit abandoned before its commit point, " + where());
                } else {
                    assertTrue(own || finishing, "after close returned, the closed store deleted " + call[1]
                            + " with no commit of its own to finish, " + where());
                }
            }
            // (Unless a commit abandoned past its commit point completed after it and deleted it.)
            if (last != null && !plan.lost && pastCommitPoint.isEmpty()) {
                durable(last);
                referredWhole(last, "none lost in the round");
            }
            // The closed store is left; a new one takes over, as after a crash.
            restart();
        }

        /**
         * Lets a call held at {@link Injector#blockAt} answer and waits (a bounded time) for {@code worker}, if any,
         * to run out the closed store's executor; throws nothing, so as not to hide a failure it follows.
         */
        private void releaseAndJoin(Thread worker) {
            CountDownLatch release;
            synchronized (injector) {
                release = injector.release;
                injector.blockAt = 0;
            }
            if (release != null) {
                release.countDown();
            }
            if (worker != null) {
                try {
                    worker.join(TimeUnit.SECONDS.toMillis(60));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** Runs a collection or a repair, which may fail typed or die. */
        void attempt(Runnable operation) {
            if (injector.dead) {
                return;
            }
            try {
                operation.run();
                executor.drain(injector);
            } catch (CheckpointStoreException e) {
                failed(e);
            } catch (Stores.Crash e) {
                assertTrue(injector.dead, "a crash escaped a store that did not die, " + where());
            }
        }

        /**
         * A store operation failed, typed: fine once a fault took effect in the round or the process died; while a
         * host is out, the first commit of a store built during the outage fails for want of an epoch (the others
         * place their fragments and markers on the hosts left).
         */
        void failed(CheckpointStoreException e) {
            failedOperations++;
            boolean outage = out >= 0 || injector.plan.wasOut;
            if (!injector.dead && !injector.plan.injected && !(outage && e instanceof EpochUnavailableException)) {
                throw new AssertionError("an operation failed with nothing injected" + (outage ? " but an outage"
                        : "") + ", " + where(), e);
            }
        }

        /** A commit that returned has all {@code n} fragments where its index says, and {@code k + 1} markers. */
        void durable(FragmentIndex index) {
            int markers = 0;
            try {
                for (Stores.Switchable host : hosts) {
                    markers += host.delegate.get(index.markerKey()).isPresent() ? 1 : 0;
                }
                for (FragmentLocation location : index.fragments()) {
                    String key = index.fragmentKey(location.fragmentIndex());
                    assertTrue(host(location.repositoryId()).delegate.get(key).isPresent(), "a commit returned"
                            + " without fragment " + key + " on " + location.repositoryId() + ", " + where());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            assertTrue(markers >= K + 1, "a commit returned with " + markers + " markers stored, " + where());
        }

        /**
         * A differential checkpoint refers only to segments whose {@code n} fragments its last listing showed where
         * their newest index records them: with no fragment lost since, every one it lists is whole.
         */
        void referredWhole(FragmentIndex index, String lost) {
            Set<CheckpointId> segments = DifferentialDurabilityTest.segments(raw, index);
            segments.remove(index.checkpointId());
            try {
                for (CheckpointId id : segments) {
                    int missing = missing(id, false);
                    assertEquals(0, missing, "a commit refers to segment " + id + ", " + missing + " of whose"
                            + " fragments were missing at its last listing (" + lost + "), " + where());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Stores.Switchable host(String id) {
            return hosts.stream().filter(h -> h.id().equals(id)).findFirst().orElseThrow();
        }

        /** After a round: a new store (and every tenth round the running one) recovers what the truth allows. */
        void check() {
            injector.plan = null;
            recoverAndJudge(newStore(new Deferred()), "a new store, " + where());
            countsWithWhatItNeeds();
            if (round % 10 == 0) {
                recoverAndJudge(store, where());
                executor.drain(injector);
            }
        }

        /**
         * No checkpoint counts without what it needs: one with a commit marker stored has a readable index copy and
         * at most {@code k} of its fragments missing — whatever deletes failed or were dropped, or where a process
         * died — but for one that had objects on a host when the host went out or failed to list them.
         */
        private void countsWithWhatItNeeds() {
            try {
                for (Map.Entry<CheckpointId, Boolean> entry : stored().entrySet()) {
                    CheckpointId id = entry.getKey();
                    if (!entry.getValue()) {
                        continue;
                    }
                    int missing = missing(id, false);
                    if (missing > K && !unseenMarkers(id)) {
                        List<String> objects = new ArrayList<>();
                        for (Stores.Switchable host : hosts) {
                            for (String key : host.delegate.list(StoreKeys.checkpointPrefix(JOB, id))) {
                                objects.add(host.id() + "/" + key.substring(key.lastIndexOf('.') + 1));
                            }
                        }
                        fail("checkpoint " + id + " has a commit marker and " + missing + " of its " + N
                                + " fragments missing: " + objects + "; the checkpoints with a marker: "
                                + stored().entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey)
                                        .sorted().toList() + ", " + where());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Whether every host holding a marker of {@code id} held it when it went out or failed a listing. */
        private boolean unseenMarkers(CheckpointId id) throws IOException {
            Set<String> recorded = unseen.getOrDefault(id, Set.of());
            for (Stores.Switchable host : hosts) {
                for (String key : host.delegate.list(StoreKeys.checkpointPrefix(JOB, id))) {
                    if (StoreKeys.parse(key).kind() == StoreKeys.Kind.MARKER && !recorded.contains(host.id())) {
                        return false;
                    }
                }
            }
            return true;
        }

        private void recoverAndJudge(CheckpointStore recovering, String where) {
            Optional<RecoveredCheckpoint> recovered;
            try {
                recovered = recovering.recover(JOB);
            } catch (CheckpointStoreException e) {
                throw new AssertionError("recovery failed, " + where, e);
            }
            if (recovered.isEmpty()) {
                fail("no checkpoint recovered, " + where);
            }
            int index = truth.judge(recovered.get().toByteArray(), where);
            unknownRecoveries += index > truth.durable ? 1 : 0;
            if (out < 0) {
                // A commit recovered is not given up later (its only marker may be on a host out, hence "all in").
                assertTrue(index >= floor, "recovered commit " + index + ", older than commit " + floor + " recovered"
                        + " before, " + where);
                floor = index;
            }
        }

        /**
         * The faults stop and the outage ends: a collection leaves, older than the newest committed checkpoint,
         * exactly the segments its manifest lists; a commit then returns and leaves only itself and its segments.
         */
        void quiet() throws Exception {
            quietChecks++;
            outage(-1);
            outRounds = 0;
            String where = "after the faults stopped, " + where();
            store.collectGarbage(JOB);
            FragmentIndex newest = store.latestIndex(JOB).orElseThrow();
            Set<CheckpointId> segments = DifferentialDurabilityTest.segments(store, newest);
            Map<CheckpointId, Boolean> ids = stored();
            Set<CheckpointId> older = new TreeSet<>();
            ids.keySet().stream().filter(id -> id.compareTo(newest.checkpointId()) < 0).forEach(older::add);
            Set<CheckpointId> expected = new TreeSet<>(segments);
            expected.remove(newest.checkpointId());
            assertEquals(expected, older, "what a collection left older than the newest checkpoint, " + where);
            ids.forEach((id, marked) -> assertTrue(id.compareTo(newest.checkpointId()) <= 0 || !marked,
                    "a checkpoint newer than the newest one recovered has a marker, " + where));
            Set<CheckpointId> live = new TreeSet<>(segments);
            live.add(newest.checkpointId());
            repairedDamage(live, where);
            int index = next();
            long before = injector.calls;
            FragmentIndex committed = store.commit(JOB, state);
            cleanCommits.add(new long[] {round, injector.calls - before});
            truth.durable(index);
            Set<CheckpointId> kept = DifferentialScaleTest.kept(store, committed, BOUND, where);
            assertEquals(kept, stored().keySet(), "the objects on the hosts after a commit without faults, " + where);
            // Nothing is left over that an operation may not have seen.
            unseen.clear();
        }

        /** Every checkpoint of which a host stores an object, and whether a host stores a marker of it. */
        Map<CheckpointId, Boolean> stored() throws IOException {
            Map<CheckpointId, Boolean> ids = new TreeMap<>();
            for (Stores.Switchable host : hosts) {
                for (String key : host.delegate.list("")) {
                    StoreKeys.Parsed parsed = StoreKeys.parse(key);
                    ids.merge(parsed.id(), parsed.kind() == StoreKeys.Kind.MARKER, Boolean::logicalOr);
                }
            }
            return ids;
        }

        /** A random checkpoint of which a host stores an object, or null if there is none. */
        private CheckpointId anyStored() throws IOException {
            List<CheckpointId> ids = new ArrayList<>(stored().keySet());
            return ids.isEmpty() ? null : ids.get(random.nextInt(ids.size()));
        }

        /**
         * Deletes one fragment of a random checkpoint present, behind the store's back, if none of its fragments is
         * missing yet (so that one host out on top leaves it within {@code k}); returns whether it deleted one.
         */
        boolean loseOne() {
            try {
                CheckpointId id = anyStored();
                if (id == null || spent(id)) {
                    return false;
                }
                List<String[]> fragments = new ArrayList<>();
                for (Stores.Switchable host : hosts) {
                    for (String key : host.delegate.list(StoreKeys.checkpointPrefix(JOB, id))) {
                        StoreKeys.Parsed parsed = StoreKeys.parse(key);
                        if (parsed.kind() == StoreKeys.Kind.FRAGMENT) {
                            fragments.add(new String[] {host.id(), key});
                        }
                    }
                }
                if (fragments.isEmpty()) {
                    return false;
                }
                String[] doomed = fragments.get(random.nextInt(fragments.size()));
                return host(doomed[0]).delegate.delete(doomed[1]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The index {@code bytes} hold, or null if they hold none (the store skips such a copy). */
        private static FragmentIndex parses(byte[] bytes) {
            try {
                return FragmentIndex.parse(bytes);
            } catch (CorruptIndexException e) {
                return null;
            }
        }

        /**
         * Damages, behind the store's back, the bytes of one fragment of a random checkpoint present none of whose
         * fragments is missing or damaged nor index copies damaged yet (so that a damage counts among the losses of
         * {@link #loseOne}), or now and then, on the same terms, one index copy of a checkpoint that has two: a byte
         * flipped anywhere, a byte in every piece (each piece's CRC-32C tells), or a byte in every piece with the
         * CRCs recomputed (only the fragment's SHA-256 tells). Returns whether it damaged something.
         */
        boolean damageOne() {
            try {
                CheckpointId id = anyStored();
                return id != null && damage(id, random.nextInt(4) == 0);
            } catch (Exception e) {
                throw new AssertionError("damaging a fragment failed, " + where(), e);
            }
        }

        /** Damages a fragment of {@code id}, or an index copy; returns whether it did (see {@link #damageOne}). */
        private boolean damage(CheckpointId id, boolean indexCopy) throws Exception {
            if (indexCopy) {
                return damageIndexCopy(id);
            }
            if (spent(id)) {
                return false;
            }
            FragmentIndex index = newestIndex(id);
            if (index == null) {
                return false;
            }
            int f = random.nextInt(N);
            Stores.Switchable holder = host(index.fragments().get(f).repositoryId());
            String key = index.fragmentKey(f);
            if (holder.delegate.get(key).isEmpty()) {
                return false;
            }
            int how = random.nextInt(3);
            if (how == 0) {
                Stores.corrupt(holder.delegate, key, random.nextInt());
            } else {
                Stores.damagePieces(hosts.stream().map(h -> h.delegate).toList(), raw, index, f, random,
                        how == 2);
            }
            damaged.put(holder.id() + "/" + key, holder.delegate.get(key).orElseThrow());
            fragmentsDamaged++;
            return true;
        }

        private boolean damageIndexCopy(CheckpointId id) throws Exception {
            if (spent(id)) {
                return false;
            }
            List<String[]> readable = new ArrayList<>();
            for (Stores.Switchable host : hosts) {
                for (String key : host.delegate.list(StoreKeys.checkpointPrefix(JOB, id))) {
                    if (StoreKeys.parse(key).kind() == StoreKeys.Kind.INDEX) {
                        readable.add(new String[] {host.id(), key});
                    }
                }
            }
            if (readable.size() < 2) {
                return false;
            }
            String[] doomed = readable.get(random.nextInt(readable.size()));
            Stores.Switchable holder = host(doomed[0]);
            Stores.corrupt(holder.delegate, doomed[1], random.nextInt());
            damagedIndex.put(doomed[0] + "/" + doomed[1], holder.delegate.get(doomed[1]).orElseThrow());
            indexCopiesDamaged++;
            return true;
        }

        /**
         * Whether checkpoint {@code id} has used the one loss or damage it is allowed: a fragment missing where an
         * index copy records it, a fragment damaged, or an index copy damaged (a damaged copy and a fragment lost on
         * two other holders, with a third out, would leave fewer than the guarantee assumes).
         */
        private boolean spent(CheckpointId id) throws IOException {
            return missing(id, true) > 0 || damaged(damaged, id) > 0 || damaged(damagedIndex, id) > 0;
        }

        /** The newest revision of {@code id}'s index among its readable copies, or null if none is readable. */
        private FragmentIndex newestIndex(CheckpointId id) throws IOException {
            FragmentIndex index = null;
            for (Stores.Switchable host : hosts) {
                for (String key : host.delegate.list(StoreKeys.checkpointPrefix(JOB, id))) {
                    if (StoreKeys.parse(key).kind() == StoreKeys.Kind.INDEX) {
                        FragmentIndex copy = parses(host.delegate.get(key).orElseThrow());
                        index = copy != null && (index == null || copy.revision() > index.revision()) ? copy
                                : index;
                    }
                }
            }
            return index;
        }

        /**
         * How many of {@code id}'s objects in {@code map} (fragments or index copies) hold the bytes a damage left;
         * forgets those that no longer do.
         */
        int damaged(Map<String, byte[]> map, CheckpointId id) throws IOException {
            int count = 0;
            for (java.util.Iterator<Map.Entry<String, byte[]>> it = map.entrySet().iterator(); it.hasNext();) {
                Map.Entry<String, byte[]> entry = it.next();
                String[] at = entry.getKey().split("/", 2);
                if (!StoreKeys.parse(at[1]).id().equals(id)) {
                    continue;
                }
                if (Arrays.equals(host(at[0]).delegate.get(at[1]).orElse(null), entry.getValue())) {
                    count++;
                } else {
                    it.remove();
                }
            }
            return count;
        }

        /**
         * With the faults stopped, a repair rewrites every damaged fragment and index copy of the checkpoints in
         * {@code live} (the newest and the segments it lists), one of which is damaged first, that is where the
         * newest readable revision of its index records it: a fragment on the holder that revision names for it, an
         * index copy on one of its holders ("on a holder that answers"). A damaged copy elsewhere — left where an
         * older revision put it, after a repair regenerated the fragment onto another host while its holder was out
         * or failed — is not the repair's to rewrite, nor collected while the checkpoint lives (a collection deletes
         * stray copies of the newest checkpoint only); it stays counted as the checkpoint's damage until it is gone.
         */
        private void repairedDamage(Set<CheckpointId> live, String where) throws Exception {
            List<CheckpointId> ids = new ArrayList<>(live);
            damage(ids.get(random.nextInt(ids.size())), random.nextInt(4) == 0);
            store.repair(JOB);
            Map<CheckpointId, Optional<FragmentIndex>> newest = new HashMap<>();
            for (Map<String, byte[]> map : List.of(damaged, damagedIndex)) {
                for (java.util.Iterator<Map.Entry<String, byte[]>> it = map.entrySet().iterator(); it.hasNext();) {
                    Map.Entry<String, byte[]> entry = it.next();
                    String[] at = entry.getKey().split("/", 2);
                    boolean still = Arrays.equals(host(at[0]).delegate.get(at[1]).orElse(null), entry.getValue());
                    StoreKeys.Parsed parsed = StoreKeys.parse(at[1]);
                    FragmentIndex index = null;
                    if (live.contains(parsed.id())) {
                        Optional<FragmentIndex> found = newest.get(parsed.id());
                        if (found == null) {
                            found = Optional.ofNullable(newestIndex(parsed.id()));
                            newest.put(parsed.id(), found);
                        }
                        index = found.orElse(null);
                    }
                    if (index != null && recordedAt(index, at[0], at[1], parsed)) {
                        assertTrue(!still, "a repair left " + entry.getKey() + " damaged, " + where);
                        damageRepaired++;
                        it.remove();
                    } else if (!still) {
                        it.remove();
                    }
                }
            }
        }

        /**
         * Whether {@code index} records object {@code key} ({@code parsed}) on host {@code host}: a fragment where it
         * places that fragment, an index copy on one of its holders.
         */
        private static boolean recordedAt(FragmentIndex index, String host, String key, StoreKeys.Parsed parsed) {
            if (parsed.kind() == StoreKeys.Kind.FRAGMENT) {
                int f = parsed.fragmentIndex();
                return index.fragments().get(f).repositoryId().equals(host) && index.fragmentKey(f).equals(key);
            }
            return index.fragments().stream().anyMatch(location -> location.repositoryId().equals(host));
        }

        /**
         * How many of checkpoint {@code id}'s {@code n} fragments are missing: a fragment counts as there only if it
         * is stored where every readable index copy of the checkpoint records it ({@code everyCopy}) or where the
         * copy of the newest revision does, {@code n + 1} if there is none (with {@code everyCopy}: anywhere, before
         * an index copy is written).
         */
        int missing(CheckpointId id, boolean everyCopy) throws IOException {
            List<FragmentIndex> copies = new ArrayList<>();
            Set<String> present = new HashSet<>();
            for (Stores.Switchable host : hosts) {
                for (String key : host.delegate.list(StoreKeys.checkpointPrefix(JOB, id))) {
                    StoreKeys.Parsed parsed = StoreKeys.parse(key);
                    if (parsed.kind() == StoreKeys.Kind.FRAGMENT) {
                        present.add(host.id() + "/" + parsed.fragmentIndex());
                    } else if (parsed.kind() == StoreKeys.Kind.INDEX) {
                        byte[] bytes = host.delegate.get(key).orElseThrow();
                        if (Arrays.equals(damagedIndex.get(host.id() + "/" + key), bytes)) {
                            // A damaged copy is detected (its CRC-32C), never read as an index.
                            assertTrue(parses(bytes) == null, "damaged index copy " + key + " on " + host.id()
                                    + " parses, " + where());
                            continue;
                        }
                        // Every copy stored but one damaged on purpose parses.
                        try {
                            copies.add(FragmentIndex.parse(bytes));
                        } catch (RuntimeException e) {
                            throw new AssertionError("index copy " + key + " on " + host.id() + " does not parse, "
                                    + where(), e);
                        }
                    }
                }
            }
            if (!everyCopy && copies.isEmpty()) {
                return N + 1;
            }
            if (!everyCopy) {
                FragmentIndex newest = copies.stream().max(java.util.Comparator.comparingInt(FragmentIndex::revision))
                        .orElseThrow();
                copies = List.of(newest);
            }
            int missing = 0;
            for (int f = 0; f < N; f++) {
                boolean there;
                if (copies.isEmpty()) {
                    int fragment = f;
                    there = present.stream().anyMatch(p -> p.endsWith("/" + fragment));
                } else {
                    there = true;
                    for (FragmentIndex copy : copies) {
                        there &= present.contains(copy.fragments().get(f).repositoryId() + "/" + f);
                    }
                }
                missing += there ? 0 : 1;
            }
            return missing;
        }
    }
}
