package io.github.volpex.checkpoint.repository.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CheckpointUnavailableException;
import io.github.volpex.checkpoint.store.CommitFailedException;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testkit.Fault;
import io.github.volpex.testkit.FaultSchedule;
import io.github.volpex.testkit.FaultyRepository;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The checkpoint store on six S3 servers (S3Proxy in this JVM), IDA (3, 2): a server is stopped for real in the middle
 * of a commit — at a random repository call — and started again later with its data. Whatever the moment, recovery
 * returns the last checkpoint whose commit returned, or the one being committed, byte for byte; and while the
 * stopped server is still down, it returns one of them or says which repositories it could not reach.
 */
class S3StoreTest {

    private static final int SERVERS = 6;
    private static final List<LocalS3> SERVERS_RUNNING = new ArrayList<>();
    private static ExecutorService io;

    @BeforeContainer
    static void start() throws Exception {
        for (int i = 0; i < SERVERS; i++) {
            SERVERS_RUNNING.add(new LocalS3());
        }
        io = Executors.newFixedThreadPool(4);
    }

    @AfterContainer
    static void stop() {
        io.shutdownNow();
        SERVERS_RUNNING.forEach(LocalS3::close);
        SERVERS_RUNNING.clear();
    }

    private static final AtomicLong JOBS = new AtomicLong();

    @Property(tries = 12)
    void a_server_stopped_mid_commit_never_costs_the_last_committed_checkpoint(
            @ForAll @IntRange(min = 1, max = 60) int stopAtCall, @ForAll @IntRange(min = 0, max = 5) int victim,
            @ForAll long seed) throws Exception {
        String job = "job" + JOBS.incrementAndGet();
        List<S3Repository> s3 = new ArrayList<>();
        List<FaultyRepository> repositories = new ArrayList<>();
        for (int i = 0; i < SERVERS; i++) {
            S3Repository repository = SERVERS_RUNNING.get(i).repository("s3-" + i).keyPrefix("store/").build();
            s3.add(repository);
            repositories.add(FaultyRepository.wrap(repository));
        }
        try {
            SplittableRandom random = new SplittableRandom(seed);
            byte[] first = new byte[20_000 + random.nextInt(200_000)];
            random.nextBytes(first);
            byte[] second = new byte[20_000 + random.nextInt(200_000)];
            random.nextBytes(second);
            CheckpointStore store = store(repositories);
            store.commit(job, first);
            // The second commit: at its stopAtCall-th repository call, the victim server stops.
            LocalS3 stopped = SERVERS_RUNNING.get(victim);
            AtomicLong calls = new AtomicLong();
            FaultSchedule stopper = (repositoryId, call, key) -> {
                if (calls.incrementAndGet() == stopAtCall) {
                    try {
                        stopped.stop();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
                return Fault.NONE;
            };
            repositories.forEach(r -> r.schedule(stopper));
            byte[] last = first;
            try {
                store.commit(job, second);
                last = second;
            } catch (CommitFailedException failed) {
                // Allowed: the previous checkpoint stays.
            }
            repositories.forEach(r -> r.schedule(FaultSchedule.none()));
            // While the server is down: the last committed one, the one being committed, or a typed "unreachable".
            try {
                byte[] recovered = store(repositories).recover(job).orElseThrow().toByteArray();
                assertTrue(Arrays.equals(recovered, last) || Arrays.equals(recovered, second),
                        "recovered neither the last committed checkpoint nor the newer one");
            } catch (CheckpointUnavailableException unreachable) {
                assertTrue(!stopped.running(), "unavailable with every server up: " + unreachable.getMessage());
            }
            // Back with its data: recovery must find the last committed one or the newer one.
            stopped.restart();
            Optional<RecoveredCheckpoint> recovered = store(repositories).recover(job);
            byte[] bytes = recovered.orElseThrow().toByteArray();
            assertTrue(Arrays.equals(bytes, last) || Arrays.equals(bytes, second));
            if (last == second) {
                assertArrayEquals(second, bytes);
            }
        } finally {
            for (LocalS3 server : SERVERS_RUNNING) {
                server.restart();
            }
            s3.forEach(S3Repository::close);
        }
    }

    private static CheckpointStore store(List<? extends FragmentRepository> repositories) {
        return CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories).executor(io)
                .segmentBytes(32 * 1024).build();
    }
}
