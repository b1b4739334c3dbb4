package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceServer;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.testkit.ConcurrentReplicatedRun;
import io.github.volpex.testkit.LinearizabilityChecker;
import io.github.volpex.testkit.ProgramStep;
import io.github.volpex.testkit.ReplicatedPrograms;
import io.github.volpex.testsupport.SearchDepth;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
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
        // Short runs on an idle machine may meet a fault or two each: CI's four runs once tried no leader kill. A
        // deeper search must try both kinds.
        if (counts.runs > DEFAULT_RUNS) {
            assertTrue(counts.leaderKills > 0 && counts.expiries > 0, "the runs did not try every kind of fault: "
                    + summary);
        }
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
        // Whether requests meet in a batch depends on timing: a few short runs on an idle machine may send each alone
        // (GroupCommitTest makes batches deterministically). A deeper search must meet batches.
        if (counts.runs > DEFAULT_RUNS) {
            assertTrue(counts.batchedTransactions > counts.batches, "no two requests shared a transaction: "
                    + summary);
        }
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
        // As for the shared clients: three runs on an idle machine once sent 137 transactions in 137 batches.
        if (counts.runs > PINNED_RUNS) {
            assertTrue(counts.batchedTransactions > counts.batches, "no two requests shared a transaction: "
                    + summary);
        }
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
        try (SessionPerReplica dataspace = new SessionPerReplica(namespace, programs.size() + 1, options,
                random.nextLong(), sharedClients)) {
            run = ConcurrentReplicatedRun.of(dataspace, programs, random.nextLong()).maxReplicasPerProcess(3);
            chaos = new Chaos(dataspace, random.nextLong());
            chaos.start();
            try {
                run.execute();
            } finally {
                chaos.stop();
            }
            counts.clients += dataspace.clientsOpened.get();
            for (ZkDataspace client : dataspace.clients) {
                counts.batches += client.commits().batches();
                counts.batchedTransactions += client.commits().transactions();
                counts.recoveredCommits += client.counters().recoveredCommits();
            }
            for (FaultyLink link : dataspace.links) {
                counts.lostReplies += link.lostReplies();
            }
        }
        LinearizabilityChecker.Result result = LinearizabilityChecker.create().check(run.history());
        assertTrue(result.isLinearizable(), () -> "seed " + seed + ": " + result);
        try (ZooKeeperDataspace observer = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(programs.size() + 1).options(options).connect()) {
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
    }

    /**
     * A dataspace whose every replica is opened on a new client — a session of its own — connected to every server or,
     * now and then, to one server only; closing the replica closes its client. The middleware's requests go through
     * one more client of their own. With shared clients, every replica is opened on one of them instead (closing it
     * leaves the client open).
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
        /** With clients of one server each: the proxies in front of the leader and the first follower. */
        final List<FaultyLink> links = new ArrayList<>();
        /** With clients of one server each: the client of the first follower, which every restart goes through. */
        ZkDataspace follower;
        private final Lagging lagging;

        SessionPerReplica(String namespace, int processCount, DataspaceOptions options, long seed, int sharedClients)
                throws IOException {
            this.namespace = namespace;
            this.processCount = processCount;
            this.options = options;
            this.random = new SplittableRandom(seed);
            this.middleware = client(ensemble.connectString());
            for (int i = 0; i < sharedClients; i++) {
                shared.add(client(ensemble.connectString()));
            }
            if (sharedClients == PINNED) {
                EmbeddedZooKeeper servers = ensemble.servers();
                int leader = Math.max(0, servers.leader());
                int first = (leader + 1) % servers.serverCount();
                int second = (leader + 2) % servers.serverCount();
                links.add(FaultyLink.to(servers.connectString(leader)));
                links.add(FaultyLink.to(servers.connectString(first)));
                follower = client(servers.connectString(first));
                shared.add(follower);
                shared.add(client(servers.connectString(second)));
                shared.add(client(links.get(0).connectString() + "," + links.get(1).connectString()));
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
                return client.open(processId, savedRequestNumber);
            }
            String connectString;
            synchronized (random) {
                int choice = random.nextInt(2 * ensemble.servers().serverCount());
                connectString = choice < ensemble.servers().serverCount()
                        ? ensemble.servers().connectString(choice) : ensemble.connectString();
            }
            ZkDataspace client = client(connectString);
            try {
                return new OwnClientReplica(client.open(processId, savedRequestNumber), client, clients);
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

    /** A replica that closes its own client when it is closed. */
    private record OwnClientReplica(Replica replica, ZkDataspace client, List<ZkDataspace> clients)
            implements Replica {
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
            replica.close();
            client.close();
            clients.remove(client);
        }
    }

    /**
     * Faults while a run executes, one at a time every 100–400 ms: the leader stopped and, 0.2–0.8 s later, restarted
     * (a third of the time; the first fault of a run is an expiry, the second a kill), or the session of a random open
     * client expired at the ensemble. With proxies (clients of one server each), a third of the time one proxy loses
     * the reply of the next batch through it, a quarter of the time a session expires, and no leader is stopped.
     */
    private static final class Chaos {
        final SessionPerReplica dataspace;
        final SplittableRandom random;
        final AtomicBoolean stopped = new AtomicBoolean();
        final AtomicInteger leaderKills = new AtomicInteger();
        final AtomicInteger expiries = new AtomicInteger();
        final List<Throwable> failures = new ArrayList<>();
        Thread thread;

        Chaos(SessionPerReplica dataspace, long seed) {
            this.dataspace = dataspace;
            this.random = new SplittableRandom(seed);
        }

        void start() {
            thread = new Thread(this::run, "chaos");
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            try {
                while (!stopped.get()) {
                    Thread.sleep(100 + random.nextInt(300));
                    if (stopped.get()) {
                        return;
                    }
                    if (!dataspace.links.isEmpty()) {
                        // A lost reply costs the client a reconnection (up to a second): one now and then.
                        if (random.nextInt(3) == 0) {
                            dataspace.links.get(random.nextInt(dataspace.links.size())).loseNextTransactionReply();
                        }
                        if (random.nextInt(4) != 0) {
                            continue;
                        }
                    }
                    // No leader kills with proxies: the followers, kept busy, may take longer to rejoin than a run.
                    // Without them, a run's first fault is an expiry and its second a leader kill, then chance decides:
                    // short runs try both kinds too.
                    boolean kill = expiries.get() > 0 && (leaderKills.get() == 0 || random.nextInt(3) == 0);
                    if (dataspace.links.isEmpty() && kill) {
                        int leader = ensemble.servers().leader();
                        if (leader >= 0) {
                            ensemble.servers().stop(leader);
                            leaderKills.incrementAndGet();
                            Thread.sleep(200 + random.nextInt(600));
                            ensemble.servers().restart(leader);
                        }
                    } else {
                        List<ZkDataspace> open = new ArrayList<>(dataspace.clients);
                        if (!open.isEmpty() && expire(open.get(random.nextInt(open.size())))) {
                            expiries.incrementAndGet();
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
