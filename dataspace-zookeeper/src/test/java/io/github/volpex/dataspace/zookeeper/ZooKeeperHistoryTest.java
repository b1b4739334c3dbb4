package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceServer;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.testkit.ConcurrentReplicatedRun;
import io.github.volpex.testkit.DataspaceHistory;
import io.github.volpex.testkit.LinearizabilityChecker;
import io.github.volpex.testkit.ProgramStep;
import io.github.volpex.testkit.ReplicatedPrograms;
import io.github.volpex.testsupport.SearchDepth;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Example;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Random replicated programs on a 3-server ensemble with every replica on a ZooKeeper client — a session — of its own,
 * some clients connected to every server and some to one server only, while the leader is stopped and restarted and
 * sessions are expired at the ensemble; replicas also join late, pause, die, restart from saved request numbers
 * (through a new client), time out and retry, and the middleware cancels waiting requests
 * ({@link ConcurrentReplicatedRun}). Every run's history is judged by the testkit's {@link LinearizabilityChecker}:
 * each tag's calls must be linearizable, and every replica of a request must receive the same outcome. The namespace's
 * invariants are checked after each run. Two more examples put the replicas on shared clients, whose requests share
 * transactions (the group commit): two clients of every server, and three clients of one server each, followers kept
 * behind and replies of batches lost.
 *
 * <p>What the runs claim to try, every run tries, whatever the machine's speed: each run's first faults are one of
 * every kind (a session expiry and a leader kill, in an order drawn from the seed; an expiry on clients of one server
 * each), and the run does not end before they have been injected ({@link Chaos}); on shared clients, a burst of puts
 * held at a proxy meets in a batch ({@link Burst}). Each run checks both and names its seed when it fails.
 *
 * <p>{@value #DEFAULT_RUNS} runs in an ordinary build ({@value #PINNED_RUNS} on clients of one server each), times the
 * search factor (the Maven profile {@code linearizability} runs 100 and 75, {@code -Pdeep-search} 400 and 300). Each
 * run draws a new seed, named in the failure message with the property that repeats its programs and choices
 * ({@code -Dvolpex.zookeeper.history.seed=<seed>}); the threads' interleaving and the faults' timing are the machine's.
 * The counts of the runs are written to {@code target/zookeeper-history.txt}.
 */
class ZooKeeperHistoryTest {

    private static final int DEFAULT_RUNS = 4;
    private static final int PINNED_RUNS = 3;
    /** The value of {@code sharedClients} that asks for clients of one server each. */
    private static final int PINNED = -1;
    private static TestEnsemble ensemble;

    @BeforeContainer
    static void start() throws Exception {
        ensemble = TestEnsemble.start(3, "/history");
    }

    @AfterContainer
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    /** What the runs did, summed. */
    private static final class Counts {
        int runs;
        int calls;
        int tags;
        int restarts;
        int lateJoiners;
        int timeouts;
        int cancels;
        int evictions;
        int clients;
        int leaderKills;
        int expiries;
        long states;
        long batches;
        long batchedTransactions;
        int lostReplies;
        long recoveredCommits;
    }

    // A jqwik example, so that the programs can be drawn from the kit's arbitrary; each run stops itself after 60 s.
    @Example
    void replicas_on_sessions_of_their_own_through_failovers_and_expiries_leave_linearizable_histories()
            throws Exception {
        Counts counts = new Counts();
        SearchDepth.eachSeed("volpex.zookeeper.history.seed", DEFAULT_RUNS, seed -> runOnce(seed, counts, 0));
        String summary = String.format("ZooKeeper dataspace histories: %d runs, %,d calls on %d tags judged "
                + "linearizable (%,d configurations explored); %d clients (sessions), %d leader kills, %d session "
                + "expiries, %d restarts, %d late joiners, %d timeouts, %d cancels, %d evictions%n", counts.runs,
                counts.calls, counts.tags, counts.states, counts.clients, counts.leaderKills, counts.expiries,
                counts.restarts, counts.lateJoiners, counts.timeouts, counts.cancels, counts.evictions);
        Files.writeString(Path.of("target", "zookeeper-history.txt"), summary);
        // Each run checks its own scheduled faults (naming its seed); this is the sum.
        assertTrue(counts.leaderKills >= counts.runs && counts.expiries >= counts.runs, "a run did not try every "
                + "kind of fault: " + summary);
    }

    /**
     * Every replica on one of two clients, so that concurrent requests of many processes share transactions (the
     * group commit), and the faults hit whole batches: a leader stopped under a batch in flight, a shared session
     * expired. The same checks as with a session per replica.
     */
    @Example
    void replicas_sharing_two_clients_batch_their_transactions_and_leave_linearizable_histories() throws Exception {
        Counts counts = new Counts();
        SearchDepth.eachSeed("volpex.zookeeper.shared.seed", DEFAULT_RUNS, seed -> runOnce(seed, counts, 2));
        String summary = String.format("ZooKeeper dataspace histories on shared clients: %d runs, %,d calls judged "
                + "linearizable; %,d transactions in %,d batches, %d leader kills, %d session expiries, %d "
                + "restarts, %d cancels%n", counts.runs, counts.calls, counts.batchedTransactions, counts.batches,
                counts.leaderKills, counts.expiries, counts.restarts, counts.cancels);
        Files.writeString(Path.of("target", "zookeeper-shared-history.txt"), summary);
        // Each run checks its own batch and scheduled faults (naming its seed); this is the sum.
        assertTrue(counts.batchedTransactions > counts.batches, "no two requests shared a transaction: " + summary);
        assertTrue(counts.leaderKills >= counts.runs && counts.expiries >= counts.runs, "a run did not try every "
                + "kind of fault: " + summary);
    }

    /**
     * Every replica on one of three clients that each see one server only: one connected to a follower, one to the
     * other follower, and one to the leader and the first follower, each through a proxy that loses replies of applied
     * batches — the client then reconnects to either, often to the follower, which may not have applied the batch
     * yet. A writer of large values through the leader keeps the followers behind, and every restart from a saved
     * request number goes through the first follower's client while the process's other replicas are in batches on
     * the others. Sessions expire as in the other runs, but no leader is stopped (a busy follower may take longer to
     * rejoin than a run lasts); the same checks.
     */
    @Example
    void replicas_sharing_clients_of_one_server_each_through_lagging_followers_and_lost_replies_stay_linearizable()
            throws Exception {
        Counts counts = new Counts();
        SearchDepth.eachSeed("volpex.zookeeper.lagging.seed", PINNED_RUNS, seed -> runOnce(seed, counts, PINNED));
        String summary = String.format("ZooKeeper dataspace histories on clients of one server each, followers "
                + "lagging: %d runs, %,d calls judged linearizable; %,d transactions in %,d batches, %d lost replies "
                + "(%d commits found applied after one), %d leader kills, %d session expiries, %d restarts through "
                + "a follower, %d cancels%n", counts.runs, counts.calls, counts.batchedTransactions, counts.batches,
                counts.lostReplies, counts.recoveredCommits, counts.leaderKills, counts.expiries, counts.restarts,
                counts.cancels);
        Files.writeString(Path.of("target", "zookeeper-lagging-history.txt"), summary);
        // Each run checks its own batch and scheduled expiry (naming its seed); this is the sum.
        assertTrue(counts.batchedTransactions > counts.batches, "no two requests shared a transaction: " + summary);
        assertTrue(counts.expiries >= counts.runs, "a run expired no session: " + summary);
    }

    /**
     * One run; {@code sharedClients}: 0 for a session per replica, else the clients every replica
     * shares ({@link #PINNED}: three clients of one server each, through lost replies and lagging followers).
     */
    private static void runOnce(long seed, Counts counts, int sharedClients) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        List<List<ProgramStep>> programs = (sharedClients == 0 ? ReplicatedPrograms.programs(2, 5, 10)
                : ReplicatedPrograms.programs(3, 6, 10)).generator(1_000).next(new Random(random.nextLong())).value();
        DataspaceOptions options = random.nextInt(3) == 0
                ? DataspaceOptions.builder().readLogCapacity(1 + random.nextInt(4)).build()
                : DataspaceOptions.defaults();
        String namespace = ensemble.freshNamespace();
        ConcurrentReplicatedRun run;
        Chaos chaos;
        long batches = 0;
        long transactions = 0;
        int burstRounds = 0;
        List<String> burstQueues = List.of();
        int processCount = programs.size() + 1 + (sharedClients == 0 ? 0 : Burst.PROCESSES);
        try (SessionPerReplica dataspace = new SessionPerReplica(namespace, processCount, options, random.nextLong(),
                sharedClients, programs)) {
            run = ConcurrentReplicatedRun.of(dataspace, programs, random.nextLong()).maxReplicasPerProcess(3);
            chaos = new Chaos(dataspace, random.nextLong());
            dataspace.chaos = chaos;
            Burst burst = sharedClients == 0 ? null
                    : new Burst(dataspace, run.history(), programs.size() + 1, random.nextLong());
            chaos.start();
            try {
                if (burst != null) {
                    burst.start();
                }
                try {
                    run.execute();
                } finally {
                    if (burst != null) {
                        burstRounds = burst.join();
                        burstQueues = burst.queuedAtRelease;
                    }
                }
            } finally {
                chaos.stop();
            }
            counts.clients += dataspace.clientsOpened.get();
            for (ZkDataspace client : dataspace.clients) {
                batches += client.commits().batches();
                transactions += client.commits().transactions();
                counts.recoveredCommits += client.counters().recoveredCommits();
            }
            for (FaultyLink link : dataspace.links) {
                counts.lostReplies += link.lostReplies();
            }
        }
        LinearizabilityChecker.Result result = LinearizabilityChecker.create().check(run.history());
        assertTrue(result.isLinearizable(), () -> "seed " + seed + ": " + result);
        String faults = chaos.leaderKills.get() + " leader kills and " + chaos.expiries.get() + " session expiries";
        String kind = sharedClients == 0 ? "own" : sharedClients == PINNED ? "pinned" : "shared";
        System.out.printf("history seed %d (%s clients): %d calls, %s (scheduled %s), %d transactions in %d batches, "
                + "%d burst rounds %s%n", seed, kind, run.history().size(), faults, chaos.schedule, transactions,
                batches, burstRounds, burstQueues);
        assertTrue(chaos.scheduleDone(), () -> "seed " + seed + ": the run ended before its scheduled faults "
                + chaos.schedule + " were all injected; it tried " + faults);
        if (sharedClients != 0) {
            String sent = transactions + " transactions in " + batches + " batches; burst rounds: " + burstQueues;
            assertTrue(transactions > batches, () -> "seed " + seed + ": no two requests shared a transaction: "
                    + sent);
        }
        try (ZooKeeperDataspace observer = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(processCount).options(options).connect()) {
            observer.collectGarbage(); // blobs of puts whose clients were closed before their commit
        }
        ensemble.inspector().check(namespace);
        counts.runs++;
        counts.calls += run.history().size();
        counts.tags += (int) programs.stream().flatMap(List::stream).map(ProgramStep::tag).distinct().count();
        counts.states += result.statesExplored();
        counts.restarts += run.restarts();
        counts.lateJoiners += run.lateJoiners();
        counts.timeouts += run.timeouts();
        counts.cancels += run.cancels();
        counts.evictions += run.evictions();
        counts.leaderKills += chaos.leaderKills.get();
        counts.expiries += chaos.expiries.get();
        counts.batches += batches;
        counts.batchedTransactions += transactions;
    }

    /**
     * A dataspace whose every replica is opened on a new client — a session of its own — connected to every server or,
     * now and then, to one server only; closing the replica closes its client. The middleware's requests go through
     * one more client of their own. With shared clients, every replica is opened on one of them instead (closing it
     * leaves the client open); the last of them goes through proxies that can hold its batch in flight (for the
     * {@link Burst}). A replica that has completed its program waits, before it closes, until the run's scheduled
     * faults have been injected (at most until the {@link Chaos}'s deadline), and so does the final try-reads' replica
     * before it opens: the run does not end before them.
     */
    private static final class SessionPerReplica implements Dataspace {
        final String namespace;
        final int processCount;
        final DataspaceOptions options;
        final SplittableRandom random;
        final ZooKeeperDataspace middleware;
        final List<ZkDataspace> clients = new CopyOnWriteArrayList<>();
        final AtomicInteger clientsOpened = new AtomicInteger();
        final List<ZkDataspace> shared = new ArrayList<>();
        /**
         * Every proxy: with clients of one server each, those in front of the leader and the first follower; else, with
         * shared clients, one in front of every server.
         */
        final List<FaultyLink> links = new ArrayList<>();
        /** Whether the clients are of one server each (through lost replies and lagging followers). */
        final boolean pinned;
        /** The programs' lengths, by process. */
        final int[] programLengths;
        /** With shared clients: the one through proxies, and so the one whose batch in flight they can hold. */
        ZkDataspace held;
        /** With clients of one server each: the client of the first follower, which every restart goes through. */
        ZkDataspace follower;
        /** The faults of the run, set before it executes. */
        volatile Chaos chaos;
        /** Whether a burst holds the client's transaction now: no fault is injected meanwhile. */
        volatile boolean holding;
        private final Lagging lagging;

        SessionPerReplica(String namespace, int processCount, DataspaceOptions options, long seed, int sharedClients,
                List<List<ProgramStep>> programs) throws IOException {
            this.namespace = namespace;
            this.processCount = processCount;
            this.options = options;
            this.random = new SplittableRandom(seed);
            this.pinned = sharedClients == PINNED;
            this.programLengths = programs.stream().mapToInt(List::size).toArray();
            this.middleware = client(ensemble.connectString());
            for (int i = 0; i < sharedClients - 1; i++) {
                shared.add(client(ensemble.connectString()));
            }
            if (sharedClients > 0) {
                StringBuilder proxied = new StringBuilder();
                for (int server = 0; server < ensemble.servers().serverCount(); server++) {
                    FaultyLink link = FaultyLink.to(ensemble.servers().connectString(server));
                    links.add(link);
                    proxied.append(server == 0 ? "" : ",").append(link.connectString());
                }
                held = client(proxied.toString());
                shared.add(held);
            }
            if (pinned) {
                EmbeddedZooKeeper servers = ensemble.servers();
                int leader = Math.max(0, servers.leader());
                int first = (leader + 1) % servers.serverCount();
                int second = (leader + 2) % servers.serverCount();
                links.add(FaultyLink.to(servers.connectString(leader)));
                links.add(FaultyLink.to(servers.connectString(first)));
                follower = client(servers.connectString(first));
                shared.add(follower);
                shared.add(client(servers.connectString(second)));
                held = client(links.get(0).connectString() + "," + links.get(1).connectString());
                shared.add(held);
                lagging = new Lagging(servers.connectString(leader), namespace + "-load");
                for (FaultyLink link : links) {
                    link.loseNextTransactionReply();
                }
            } else {
                lagging = null;
            }
        }

        private ZkDataspace client(String connectString) {
            ZkDataspace client = (ZkDataspace) ZooKeeperDataspace.builder(connectString, namespace)
                    .processCount(processCount).options(options).inlineLimitBytes(random.nextInt(3) == 0 ? 0 : 1024)
                    .connectionLossTimeout(Duration.ofSeconds(60)).connect();
            clients.add(client);
            clientsOpened.incrementAndGet();
            return client;
        }

        @Override
        public Replica open(int processId) {
            return open(processId, 0);
        }

        @Override
        public Replica open(int processId, long savedRequestNumber) {
            long programLength = processId < programLengths.length ? programLengths[processId] : Long.MAX_VALUE;
            if (processId == programLengths.length) {
                chaos.awaitSchedule(); // the final try-reads come after the scheduled faults
            }
            if (!shared.isEmpty()) {
                ZkDataspace client;
                synchronized (random) {
                    if (follower == null) {
                        client = shared.get(random.nextInt(shared.size()));
                    } else if (savedRequestNumber > 0) {
                        client = follower;
                    } else {
                        // Half the replicas on the client whose replies are lost, the others on a follower's.
                        client = shared.get(random.nextBoolean() ? shared.size() - 1 : random.nextInt(2));
                    }
                }
                return new RunReplica(client.open(processId, savedRequestNumber), null, clients, programLength, chaos);
            }
            String connectString;
            synchronized (random) {
                int choice = random.nextInt(2 * ensemble.servers().serverCount());
                connectString = choice < ensemble.servers().serverCount()
                        ? ensemble.servers().connectString(choice) : ensemble.connectString();
            }
            ZkDataspace client = client(connectString);
            try {
                return new RunReplica(client.open(processId, savedRequestNumber), client, clients, programLength,
                        chaos);
            } catch (RuntimeException | Error failed) {
                client.close();
                clients.remove(client);
                throw failed;
            }
        }

        @Override
        public int processCount() {
            return processCount;
        }

        @Override
        public DataspaceOptions options() {
            return options;
        }

        @Override
        public DataspaceServer server() {
            return middleware.server();
        }

        @Override
        public DataspaceStatistics statistics() {
            return middleware.statistics();
        }

        @Override
        public boolean isClosed() {
            return middleware.isClosed();
        }

        @Override
        public void close() {
            try {
                if (lagging != null) {
                    lagging.close();
                }
            } finally {
                for (ZkDataspace client : clients) {
                    client.close();
                }
                clients.clear();
                for (FaultyLink link : links) {
                    try {
                        link.close();
                    } catch (IOException ex) {
                        throw new UncheckedIOException(ex);
                    }
                }
            }
        }
    }

    /**
     * Large values written one after another through one server (the leader, when it starts), so that the followers
     * apply the commits of the run a little later than the leader: a thread of its own, on a session of its own.
     */
    private static final class Lagging implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;
        private final List<Throwable> failures = new CopyOnWriteArrayList<>();

        Lagging(String connectString, String scratch) {
            thread = new Thread(() -> {
                byte[] large = new byte[64 << 10];
                try {
                    ZooKeeper loader = Sessions.connect(connectString);
                    try {
                        loader.create(scratch, new byte[0], Records.OPEN_ACL, CreateMode.PERSISTENT);
                        while (running.get()) {
                            try {
                                loader.setData(scratch, large, -1);
                            } catch (KeeperException ex) {
                                Thread.sleep(50); // its server stopped, or the session expired: writes resume later
                            }
                        }
                        loader.delete(scratch, -1);
                    } finally {
                        loader.close();
                    }
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                } catch (Exception | Error ex) {
                    failures.add(ex);
                }
            }, "lagging-followers");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() {
            running.set(false);
            try {
                thread.join(TimeUnit.SECONDS.toMillis(60));
                if (thread.isAlive()) {
                    // Stuck connecting or writing: interrupting it ends its session and its writes.
                    thread.interrupt();
                    thread.join(TimeUnit.SECONDS.toMillis(30));
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                throw new AssertionError("the writer that kept the followers busy did not stop");
            }
            if (!failures.isEmpty()) {
                throw new AssertionError("the followers could not be kept busy", failures.get(0));
            }
        }
    }

    /**
     * A replica of a run: once it has completed its program ({@code programLength} requests), its close waits for the
     * run's scheduled faults; it closes its own client, if it has one ({@code client} not null), when it is closed.
     */
    private record RunReplica(Replica replica, ZkDataspace client, List<ZkDataspace> clients, long programLength,
            Chaos chaos) implements Replica {
        @Override
        public int processId() {
            return replica.processId();
        }

        @Override
        public int processCount() {
            return replica.processCount();
        }

        @Override
        public long requestNumber() {
            return replica.requestNumber();
        }

        @Override
        public void put(String tag, byte[] data) {
            replica.put(tag, data);
        }

        @Override
        public boolean putIfAbsent(String tag, byte[] data) {
            return replica.putIfAbsent(tag, data);
        }

        @Override
        public byte[] read(String tag) throws InterruptedException {
            return replica.read(tag);
        }

        @Override
        public byte[] read(String tag, Duration timeout) throws InterruptedException {
            return replica.read(tag, timeout);
        }

        @Override
        public byte[] get(String tag) throws InterruptedException {
            return replica.get(tag);
        }

        @Override
        public byte[] get(String tag, Duration timeout) throws InterruptedException {
            return replica.get(tag, timeout);
        }

        @Override
        public Optional<byte[]> tryRead(String tag) {
            return replica.tryRead(tag);
        }

        @Override
        public Optional<byte[]> tryGet(String tag) {
            return replica.tryGet(tag);
        }

        @Override
        public Optional<byte[]> cancelPending() {
            return replica.cancelPending();
        }

        @Override
        public boolean isClosed() {
            return replica.isClosed();
        }

        @Override
        public void close() {
            if (!replica.isClosed() && replica.requestNumber() >= programLength) {
                chaos.awaitSchedule();
            }
            replica.close();
            if (client != null) {
                client.close();
                clients.remove(client);
            }
        }
    }

    /**
     * A burst of puts that meet in a batch, on a thread of its own, while a run with shared clients executes:
     * {@value #PROCESSES} processes of their own (after the final try-reads' one), each with one replica on the client
     * behind proxies, recorded in the run's history. Each puts its tag once alone; then the proxies hold that client's
     * next transaction of a burst's tag, the processes put again together, and once the others have queued behind the
     * one held (at most {@value #QUEUE_SECONDS} s) the proxies release it: the queued puts go as one batch, for their
     * tags lie in distinct buckets under distinct guards and each process's record exists, so no two touch the same
     * znode. No fault is injected while a transaction is held. A round that met no batch all the same (a put still
     * reading when another's transaction was held: its reads wait behind it on the connection) is repeated, up to
     * {@value #ROUNDS} rounds; the run's check requires a batch. Each process then try-reads its tag.
     */
    private static final class Burst {
        static final int PROCESSES = 4;
        static final int QUEUE_SECONDS = 3;
        static final int ROUNDS = 10;
        static final String TAG_PREFIX = "burst-";
        private final SessionPerReplica dataspace;
        private final DataspaceHistory history;
        private final int firstProcess;
        private final SplittableRandom random;
        private final List<Throwable> failures = new CopyOnWriteArrayList<>();
        private final AtomicInteger rounds = new AtomicInteger();
        /** What each round found when it released the transaction held: the transactions queued behind it. */
        final List<String> queuedAtRelease = new CopyOnWriteArrayList<>();
        private Thread thread;

        Burst(SessionPerReplica dataspace, DataspaceHistory history, int firstProcess, long seed) {
            this.dataspace = dataspace;
            this.history = history;
            this.firstProcess = firstProcess;
            this.random = new SplittableRandom(seed);
        }

        void start() {
            thread = new Thread(() -> {
                try {
                    burst();
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                } catch (Exception | Error ex) {
                    failures.add(ex);
                } finally {
                    for (FaultyLink link : dataspace.links) {
                        link.releaseHeld();
                    }
                    dataspace.holding = false;
                }
            }, "burst");
            thread.setDaemon(true);
            thread.start();
        }

        /** Tags in distinct buckets under distinct guards. */
        private static List<String> tags() {
            List<String> tags = new ArrayList<>();
            Set<Integer> buckets = new HashSet<>();
            Set<Integer> guards = new HashSet<>();
            for (int k = 0; tags.size() < PROCESSES; k++) {
                String tag = TAG_PREFIX + k;
                if (!buckets.contains(Layout.tagBucketOf(tag)) && !guards.contains(NamespaceKeys.guardOf(tag))) {
                    buckets.add(Layout.tagBucketOf(tag));
                    guards.add(NamespaceKeys.guardOf(tag));
                    tags.add(tag);
                }
            }
            return tags;
        }

        private void burst() throws Exception {
            Thread.sleep(random.nextInt(50)); // into the run
            ZkDataspace client = dataspace.held;
            List<String> tags = tags();
            List<Replica> replicas = new ArrayList<>();
            try {
                for (int j = 0; j < PROCESSES; j++) {
                    replicas.add(history.recording(client.open(firstProcess + j)));
                    replicas.get(j).put(tags.get(j), Utf8.bytes("alone " + j));
                }
                long shared = 0;
                while (shared == 0 && rounds.get() < ROUNDS) {
                    long before = client.commits().transactions() - client.commits().batches();
                    round(client, tags, replicas, rounds.incrementAndGet());
                    shared = client.commits().transactions() - client.commits().batches() - before;
                }
                for (int j = 0; j < PROCESSES; j++) {
                    replicas.get(j).tryRead(tags.get(j));
                }
            } finally {
                replicas.forEach(Replica::close);
            }
        }

        /** One round: every process puts its tag again, their transactions queued behind one held at the proxies. */
        private void round(ZkDataspace client, List<String> tags, List<Replica> replicas, int round)
                throws Exception {
            dataspace.holding = true;
            for (FaultyLink link : dataspace.links) {
                link.holdNextTransaction(Utf8.bytes("/" + TAG_PREFIX));
            }
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> putters = new ArrayList<>();
            for (int j = 0; j < PROCESSES; j++) {
                Replica replica = replicas.get(j);
                String tag = tags.get(j);
                byte[] value = Utf8.bytes("together " + j + " in round " + round);
                Thread putter = new Thread(() -> {
                    try {
                        go.await();
                        replica.put(tag, value);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException | Error ex) {
                        failures.add(ex);
                    }
                }, "burst-put");
                putter.setDaemon(true);
                putters.add(putter);
                putter.start();
            }
            go.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(QUEUE_SECONDS);
            while (!(client.commits().queued() >= PROCESSES - 1 && dataspace.links.stream().anyMatch(
                    FaultyLink::holding)) && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            queuedAtRelease.add(client.commits().queued() + (dataspace.links.stream().anyMatch(FaultyLink::holding)
                    ? " queued behind one held" : " queued, none held"));
            for (FaultyLink link : dataspace.links) {
                link.releaseHeld();
            }
            dataspace.holding = false;
            for (Thread putter : putters) {
                putter.join(TimeUnit.SECONDS.toMillis(120));
                if (putter.isAlive()) {
                    throw new AssertionError("a put of the burst did not return");
                }
            }
        }

        /** Waits for the burst; returns its rounds. */
        int join() throws InterruptedException {
            thread.join(TimeUnit.SECONDS.toMillis(300));
            if (thread.isAlive()) {
                throw new AssertionError("the burst did not end");
            }
            if (!failures.isEmpty()) {
                throw new AssertionError("a replica of the burst failed", failures.get(0));
            }
            return rounds.get();
        }
    }

    /** The kinds of fault the {@link Chaos} injects at the ensemble (lost replies are the proxies'). */
    private enum Fault {
        SESSION_EXPIRY, LEADER_KILL
    }

    /**
     * Faults while a run executes, one at a time. First the run's schedule, one fault of every kind, in an order drawn
     * from the seed, 20–100 ms apart from the start, each retried until it took effect: a session expiry and a leader
     * kill (no leader kill with clients of one server each: the followers, kept busy, may take longer to rejoin than a
     * run lasts). The run does not end before the schedule is done ({@link SessionPerReplica}), or until
     * {@value #SCHEDULE_SECONDS} s after the start, whichever comes first; its check then requires it done. Then
     * chance, every 100–400 ms: the leader stopped and, 0.2–0.8 s later, restarted (a third of the time), or the
     * session of a random open client expired at the ensemble; with clients of one server each, a third of the time
     * one proxy loses the reply of the next batch through it, a quarter of the time a session expires. No fault while
     * a {@link Burst} holds a transaction. A leader kill is done when the
     * ensemble has a leader again; an expiry, when the session's takeover has ended it.
     */
    private static final class Chaos {
        static final int SCHEDULE_SECONDS = 30;
        final SessionPerReplica dataspace;
        final SplittableRandom random;
        final AtomicBoolean stopped = new AtomicBoolean();
        final AtomicInteger leaderKills = new AtomicInteger();
        final AtomicInteger expiries = new AtomicInteger();
        final List<Throwable> failures = new ArrayList<>();
        /** The faults every run tries, in order. */
        final List<Fault> schedule;
        /** The scheduled faults not yet injected; the chaos thread's own. */
        private final ArrayDeque<Fault> due;
        private final CountDownLatch scheduleDone = new CountDownLatch(1);
        private volatile long scheduleDeadlineNanos;
        Thread thread;

        Chaos(SessionPerReplica dataspace, long seed) {
            this.dataspace = dataspace;
            this.random = new SplittableRandom(seed);
            due = new ArrayDeque<>(List.of(Fault.SESSION_EXPIRY));
            if (!dataspace.pinned) {
                if (random.nextBoolean()) {
                    due.addFirst(Fault.LEADER_KILL);
                } else {
                    due.addLast(Fault.LEADER_KILL);
                }
            }
            schedule = List.copyOf(due);
        }

        void start() {
            scheduleDeadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(SCHEDULE_SECONDS);
            thread = new Thread(this::run, "chaos");
            thread.setDaemon(true);
            thread.start();
        }

        /** Waits until the scheduled faults have been injected, or the schedule's deadline passed. */
        void awaitSchedule() {
            try {
                scheduleDone.await(Math.max(0, scheduleDeadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }

        /** Whether every scheduled fault has been injected. */
        boolean scheduleDone() {
            return scheduleDone.getCount() == 0;
        }

        private void run() {
            try {
                while (!stopped.get()) {
                    boolean scheduled = !due.isEmpty();
                    Thread.sleep(scheduled ? 20 + random.nextInt(80) : 100 + random.nextInt(300));
                    if (stopped.get()) {
                        return;
                    }
                    Fault fault;
                    if (dataspace.pinned && random.nextInt(3) == 0) {
                        // A lost reply costs the client a reconnection (up to a second): one now and then.
                        dataspace.links.get(random.nextInt(dataspace.links.size())).loseNextTransactionReply();
                    }
                    while (dataspace.holding && !stopped.get()) {
                        Thread.sleep(5); // a burst's round is short: its batch is not cut by a fault
                    }
                    if (scheduled) {
                        fault = due.peek();
                    } else if (dataspace.pinned) {
                        if (random.nextInt(4) != 0) {
                            continue;
                        }
                        fault = Fault.SESSION_EXPIRY;
                    } else {
                        fault = random.nextInt(3) == 0 ? Fault.LEADER_KILL : Fault.SESSION_EXPIRY;
                    }
                    if (inject(fault) && scheduled) {
                        due.poll();
                        if (due.isEmpty()) {
                            scheduleDone.countDown();
                        }
                    }
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException | Error failure) {
                synchronized (failures) {
                    failures.add(failure);
                }
            }
        }

        /** Injects one fault and waits until it is over; false if it could not take effect now. */
        private boolean inject(Fault fault) throws InterruptedException {
            if (fault == Fault.LEADER_KILL) {
                int leader = ensemble.servers().leader();
                if (leader < 0) {
                    return false; // an election in progress
                }
                ensemble.servers().stop(leader);
                leaderKills.incrementAndGet();
                Thread.sleep(200 + random.nextInt(600));
                ensemble.servers().restart(leader);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SCHEDULE_SECONDS);
                while (ensemble.servers().leader() < 0 && System.nanoTime() - deadline < 0) {
                    Thread.sleep(10);
                }
                return true;
            }
            List<ZkDataspace> open = new ArrayList<>(dataspace.clients);
            if (!open.isEmpty() && expire(open.get(random.nextInt(open.size())))) {
                expiries.incrementAndGet();
                return true;
            }
            return false;
        }

        /** Expires a client's session by taking it over and closing it; false if the session was over already. */
        private static boolean expire(ZkDataspace client) throws InterruptedException {
            if (client.isClosed()) {
                return false;
            }
            long sessionId = client.context().session.sessionId();
            byte[] password = client.context().session.sessionPassword();
            CountDownLatch decided = new CountDownLatch(1);
            AtomicBoolean connected = new AtomicBoolean();
            Watcher watcher = event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.set(true);
                    decided.countDown();
                } else if (event.getState() == Watcher.Event.KeeperState.Expired) {
                    decided.countDown();
                }
            };
            try {
                ZooKeeper takeover = new ZooKeeper(ensemble.connectString(), 10_000, watcher, sessionId, password);
                try {
                    decided.await(10, TimeUnit.SECONDS);
                } finally {
                    takeover.close();
                }
            } catch (IOException ex) {
                throw new IllegalStateException(ex);
            }
            return connected.get();
        }

        void stop() throws InterruptedException {
            stopped.set(true);
            thread.join(TimeUnit.SECONDS.toMillis(120)); // the fault in progress ends first
            for (FaultyLink link : dataspace.links) {
                link.disarm();
            }
            for (int server = 0; server < ensemble.servers().serverCount(); server++) {
                ensemble.servers().restart(server); // a leader stopped when the interrupt came
            }
            synchronized (failures) {
                if (!failures.isEmpty()) {
                    throw new AssertionError("the faults could not be injected", failures.get(0));
                }
            }
        }
    }
}
