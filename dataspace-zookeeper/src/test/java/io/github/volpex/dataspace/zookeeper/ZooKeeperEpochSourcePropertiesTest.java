package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The epoch source's law, against a model: whatever sequence of acquisitions and checks several clients make, an
 * acquisition returns {@code max(counter, highestSeen) + 1} and becomes the counter, and a check is true exactly for
 * the counter. A failing case replays from its jqwik seed.
 */
class ZooKeeperEpochSourcePropertiesTest {

    private static final int CLIENTS = 3;
    private static final AtomicInteger PATHS = new AtomicInteger();
    private static EmbeddedZooKeeper ensemble;
    private static ZooKeeperEpochSource[] clients;

    /** One call: an acquisition with a highest epoch seen, or a check of an epoch. */
    record Call(int client, boolean acquire, long argument) {
    }

    @BeforeContainer
    static void start() {
        ensemble = EmbeddedZooKeeper.start(1);
        clients = new ZooKeeperEpochSource[CLIENTS];
        for (int i = 0; i < CLIENTS; i++) {
            clients[i] = ZooKeeperEpochSource.connect(ensemble.connectString(), "/law");
        }
    }

    @AfterContainer
    static void stop() throws Exception {
        Closing.all(clients);
        Closing.all(ensemble);
    }

    @Provide
    Arbitrary<List<Call>> calls() {
        Arbitrary<Call> call = Combinators.combine(Arbitraries.integers().between(0, CLIENTS - 1),
                Arbitraries.of(true, false), Arbitraries.longs().between(-1, 40)).as(Call::new);
        return call.list().ofMinSize(1).ofMaxSize(25);
    }

    @Property(tries = 40)
    void acquisitions_and_checks_follow_the_counter(@ForAll("calls") List<Call> calls) throws Exception {
        String job = "job-" + PATHS.incrementAndGet();
        long counter = -1; // no counter yet
        for (Call call : calls) {
            ZooKeeperEpochSource client = clients[call.client()];
            if (call.acquire()) {
                long expected = Math.max(counter, call.argument()) + 1;
                assertEquals(expected, client.acquire(job, call.argument()), call + " after counter " + counter);
                counter = expected;
            } else {
                long epoch = Math.max(0, call.argument());
                assertEquals(epoch == counter, client.isCurrent(job, epoch), call + " with counter " + counter);
            }
        }
    }
}
