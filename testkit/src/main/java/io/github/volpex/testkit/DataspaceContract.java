package io.github.volpex.testkit;

import static io.github.volpex.testkit.ContractSupport.awaitBlocked;
import static io.github.volpex.testkit.ContractSupport.awaitRequests;
import static io.github.volpex.testkit.ContractSupport.bytes;
import static io.github.volpex.testkit.ContractSupport.start;
import static io.github.volpex.testkit.ContractSupport.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceServer;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.ReadLogEvictedException;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.ReplicaDivergenceException;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import io.github.volpex.testkit.ContractSupport.Started;
import io.github.volpex.testsupport.SearchDepth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of a {@link Dataspace}: the semantic rules 2–9 of the Volpex execution model (single put, identical
 * get, read log and eviction, divergence, restarts, blocking and timeouts, FIFO wake-up, try-operations, close and
 * statistics), cancelling a waiting request, restarting inside one, and the asynchronous
 * {@link DataspaceServer#submit(Request)} (thousands of waiting requests with no thread each), one or more tests each.
 * Extend it in your test sources with a factory for your implementation:
 *
 * <pre>{@code
 * class MyDataspaceTest extends DataspaceContract {
 *     @Override
 *     protected Dataspace create(int processCount, DataspaceOptions options) {
 *         return MyDataspace.create(processCount, options);
 *     }
 * }
 * }</pre>
 *
 * <p>Every test closes the dataspaces it creates and runs within 30 seconds; blocking calls run on threads the test
 * starts and stops itself. The tests need the JUnit Jupiter engine on the test class path.
 *
 * <p>The races the contract repeats (replicas started together, a cancel racing a put) run 200 rounds each, times
 * the search factor of {@link io.github.volpex.testsupport.SearchDepth}: run the suite with
 * {@code -Dvolpex.search.factor=100} (and {@code -Djunit.jupiter.execution.timeout.mode=disabled}, since the
 * hang guard below is sized for an ordinary run) to search a hundred times deeper.
 *
 * @since 0.1
 */
// A hang guard only (a lost wake-up blocks forever): generous, for remote implementations on loaded machines.
@Timeout(value = 300, unit = TimeUnit.SECONDS)
public abstract class DataspaceContract {

    /** For subclasses. */
    protected DataspaceContract() {
    }

    /**
     * Creates a new, open dataspace of the implementation under test. Each call must return a dataspace that shares
     * no state with the others.
     *
     * @param processCount the number of logical processes, as given to the implementation (some tests pass an
     *                     invalid count and expect {@link IllegalArgumentException})
     * @param options      the limits
     * @return the dataspace; the test closes it
     */
    protected abstract Dataspace create(int processCount, DataspaceOptions options);

    /**
     * Returns how many submitted gets wait together, each of a process of its own, in the test of
     * {@link DataspaceServer#submit(Request)} at scale: 2,000 by default. Override it only if the implementation cannot
     * hold that many processes in one dataspace, or runs that many requests too slowly for the test's 30 seconds
     * (each get and each put is a round trip to a remote store, say); the test then runs at the size returned.
     *
     * @return the number of waiting gets, {@code ≥ 100}
     */
    protected int submittedWaiters() {
        return 2_000;
    }

    Dataspace create(int processCount) {
        return create(processCount, DataspaceOptions.defaults());
    }

    static DataspaceOptions capacity(int requests) {
        return DataspaceOptions.builder().readLogCapacity(requests).build();
    }

    // ---- Rule 2: single put -------------------------------------------------------------------------------------

    @Test
    void rule2_single_put_only_the_first_replicas_put_applies() throws Exception {
        try (Dataspace dataspace = create(2)) {
            Replica leader = dataspace.open(0);
            Replica trailer = dataspace.open(0);
            Replica reader = dataspace.open(1);
            leader.put("x", bytes("first"));
            leader.put("x", bytes("second"));
            trailer.put("x", bytes("first"));
            assertEquals("second", text(reader.read("x")), "a trailing put must not overwrite the leading front");
            trailer.put("x", bytes("second"));
            assertEquals(2, trailer.requestNumber());
            assertEquals(2, dataspace.statistics().duplicatesIgnored());
        }
    }

    @Test
    void rule2_single_put_a_repeated_request_is_reported_as_a_duplicate() throws Exception {
        try (Dataspace dataspace = create(1)) {
            DataspaceServer server = dataspace.server();
            Reply first = server.handle(Request.put(0, 1, "x", bytes("v")));
            Reply again = server.handle(Request.put(0, 1, "x", bytes("v")));
            assertFalse(first.duplicate());
            assertTrue(again.duplicate());
            assertTrue(again.stored(), "the first replica's put took effect");
            assertEquals(1, server.highWaterMark(0));
        }
    }

    @Test
    void rule2_single_put_duplicates_are_ignored_after_their_log_entries_were_evicted() throws Exception {
        try (Dataspace dataspace = create(2, capacity(2))) {
            DataspaceServer server = dataspace.server();
            for (int request = 1; request <= 5; request++) {
                server.handle(Request.put(0, request, "x", bytes("v" + request)));
            }
            assertEquals(4, server.oldestRetained(0), "requests 1 to 3 were evicted");
            Reply late = server.handle(Request.put(0, 1, "x", bytes("v1")));
            assertTrue(late.duplicate());
            assertEquals("v5", text(server.handle(Request.read(1, 1, "x")).data().orElseThrow()));
            assertEquals(1, dataspace.statistics().duplicatesIgnored());
        }
    }

    // ---- Rule 3: identical get ----------------------------------------------------------------------------------

    @Test
    void rule3_identical_get_trailing_replica_receives_the_leaders_data_after_overwrite_and_removal()
            throws Exception {
        try (Dataspace dataspace = create(2)) {
            Replica writer = dataspace.open(0);
            Replica leader = dataspace.open(1);
            Replica trailer = dataspace.open(1);
            writer.put("x", bytes("one"));
            writer.put("y", bytes("why"));
            byte[] read = leader.read("x");
            byte[] got = leader.get("x");
            Optional<byte[]> tryRead = leader.tryRead("y");
            Optional<byte[]> tryGet = leader.tryGet("y");
            writer.put("x", bytes("two"));
            writer.put("y", bytes("zed"));
            assertArrayEquals(read, trailer.read("x"));
            assertArrayEquals(got, trailer.get("x"));
            assertArrayEquals(tryRead.orElseThrow(), trailer.tryRead("y").orElseThrow());
            assertArrayEquals(tryGet.orElseThrow(), trailer.tryGet("y").orElseThrow());
            assertEquals("one", text(got));
            assertEquals("why", text(tryGet.orElseThrow()));
            Replica other = dataspace.open(0, writer.requestNumber());
            assertEquals("two", text(other.tryRead("x").orElseThrow()), "the replay consumed nothing");
            assertEquals("zed", text(other.tryRead("y").orElseThrow()), "the replay consumed nothing");
            assertEquals(4, dataspace.statistics().servedFromLog());
        }
    }

    @Test
    void rule3_identical_get_trailing_try_ops_see_absent_when_the_leader_did() {
        try (Dataspace dataspace = create(2)) {
            Replica writer = dataspace.open(0);
            Replica leader = dataspace.open(1);
            Replica trailer = dataspace.open(1);
            assertTrue(leader.tryGet("x").isEmpty());
            assertTrue(leader.tryRead("x").isEmpty());
            writer.put("x", bytes("late"));
            assertTrue(trailer.tryGet("x").isEmpty(), "the leader saw absent");
            assertTrue(trailer.tryRead("x").isEmpty(), "the leader saw absent");
            assertEquals("late", text(dataspace.open(0, 1).tryRead("x").orElseThrow()), "nothing was removed");
        }
    }

    @Test
    void rule3_identical_get_single_assignment_answers_are_identical_too() {
        try (Dataspace dataspace = create(2)) {
            Replica leader = dataspace.open(0);
            Replica trailer = dataspace.open(0);
            Replica other = dataspace.open(1);
            assertTrue(leader.putIfAbsent("x", bytes("a")));
            assertFalse(leader.putIfAbsent("x", bytes("b")));
            assertTrue(other.tryGet("x").isPresent());
            assertTrue(trailer.putIfAbsent("x", bytes("a")), "the leader's first answer, although x is absent now");
            assertFalse(trailer.putIfAbsent("x", bytes("b")), "the leader's second answer");
            assertTrue(other.tryRead("x").isEmpty(), "the trailing single-assignment puts stored nothing");
        }
    }

    @Test
    void rule3_identical_get_data_is_copied_in_and_out() throws Exception {
        try (Dataspace dataspace = create(2)) {
            Replica writer = dataspace.open(0);
            Replica reader = dataspace.open(1);
            byte[] data = bytes("abc");
            writer.put("x", data);
            data[0] = 'z';
            byte[] first = reader.read("x");
            first[1] = 'z';
            assertEquals("abc", text(reader.read("x")));
            assertEquals("abc", text(dataspace.open(1).read("x")), "the logged copy is untouched");
        }
    }

    // ---- Rule 4: same-frontier race ----------------------------------------------------------------------------

    @Test
    void rule4_same_frontier_race_two_blocked_replicas_consume_one_tuple_and_both_receive_it() throws Exception {
        try (Dataspace dataspace = create(3)) {
            Replica first = dataspace.open(1);
            Replica second = dataspace.open(1);
            Started<byte[]> a = start("replica-a", () -> first.get("x"));
            Started<byte[]> b = start("replica-b", () -> second.get("x"));
            awaitRequests(dataspace, 2);
            awaitBlocked(a.thread());
            awaitBlocked(b.thread());
            Replica writer = dataspace.open(0);
            writer.put("x", bytes("one"));
            writer.put("x", bytes("two"));
            assertEquals("one", text(a.future().get(10, TimeUnit.SECONDS)));
            assertEquals("one", text(b.future().get(10, TimeUnit.SECONDS)));
            assertEquals("two", text(dataspace.open(2).tryGet("x").orElseThrow()), "one tuple was consumed");
            assertEquals(1, dataspace.statistics().joinedPending());
        }
    }

    @Test
    void rule4_same_frontier_race_replicas_started_together_consume_one_tuple() throws Exception {
        int rounds = SearchDepth.rounds(200);
        for (int round = 0; round < rounds; round++) {
            try (Dataspace dataspace = create(3)) {
                Replica writer = dataspace.open(0);
                writer.put("x", bytes("one"));
                writer.put("y", bytes("why"));
                CyclicBarrier barrier = new CyclicBarrier(2);
                Replica first = dataspace.open(1);
                Replica second = dataspace.open(1);
                Started<String> a = start("a", () -> {
                    barrier.await();
                    return text(first.get("x")) + text(first.tryGet("y").orElseThrow());
                });
                Started<String> b = start("b", () -> {
                    barrier.await();
                    return text(second.get("x")) + text(second.tryGet("y").orElseThrow());
                });
                assertEquals("onewhy", a.future().get(10, TimeUnit.SECONDS));
                assertEquals("onewhy", b.future().get(10, TimeUnit.SECONDS));
                Replica observer = dataspace.open(2);
                assertTrue(observer.tryRead("x").isEmpty());
                assertTrue(observer.tryRead("y").isEmpty());
                assertEquals(2, dataspace.server().highWaterMark(1));
            }
        }
    }

    // ---- Rule 5: timeout or interrupt leaves the operation pending ---------------------------------------------

    @Test
    void rule5_timeout_leaves_the_get_pending_and_the_retry_receives_the_result() throws Exception {
        try (Dataspace dataspace = create(3)) {
            Replica getter = dataspace.open(1);
            DataspaceTimeoutException timeout = assertThrows(DataspaceTimeoutException.class,
                    () -> getter.get("x", Duration.ofMillis(5)));
            assertEquals(1, timeout.processId());
            assertEquals(1, timeout.requestNumber());
            assertEquals(Operation.GET, timeout.operation());
            assertEquals("x", timeout.tag());
            assertEquals(Duration.ofMillis(5), timeout.timeout());
            assertEquals(0, getter.requestNumber(), "the request did not complete");
            assertThrows(DataspaceTimeoutException.class, () -> getter.get("x", Duration.ZERO));
            Replica writer = dataspace.open(0);
            writer.put("x", bytes("one"));
            writer.put("x", bytes("two"));
            assertEquals("one", text(getter.get("x")), "the pending get took the first tuple");
            assertEquals(1, getter.requestNumber());
            assertEquals("one", text(dataspace.open(1).get("x")), "another replica receives the same result");
            assertEquals("two", text(dataspace.open(2).tryGet("x").orElseThrow()), "nothing consumed twice or lost");
        }
    }

    @Test
    void rule5_interrupt_leaves_the_get_pending_and_another_replica_receives_the_result() throws Exception {
        try (Dataspace dataspace = create(3)) {
            Replica interrupted = dataspace.open(1);
            Started<byte[]> call = start("reader", () -> interrupted.get("x"));
            awaitBlocked(call.thread());
            call.thread().interrupt();
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> call.future().get(10, TimeUnit.SECONDS));
            assertInstanceOf(InterruptedException.class, failure.getCause());
            assertEquals(0, interrupted.requestNumber());
            Replica writer = dataspace.open(0);
            writer.put("x", bytes("one"));
            writer.put("x", bytes("two"));
            assertEquals("one", text(dataspace.open(1).get("x")), "another replica receives the pending result");
            assertEquals("one", text(interrupted.get("x")), "so does the retry");
            assertEquals("two", text(dataspace.open(2).get("x")), "the second tuple is still there");
        }
    }

    @Test
    void rule5_a_different_call_after_a_timeout_is_a_divergence() {
        try (Dataspace dataspace = create(1)) {
            Replica replica = dataspace.open(0);
            assertThrows(DataspaceTimeoutException.class, () -> replica.read("x", Duration.ZERO));
            ReplicaDivergenceException divergence = assertThrows(ReplicaDivergenceException.class,
                    () -> replica.put("x", bytes("v")));
            assertEquals(Operation.READ, divergence.loggedOperation());
            assertEquals(Operation.PUT, divergence.requestedOperation());
        }
    }

    @Test
    void rule5_the_request_level_interface_rejects_a_new_request_while_the_previous_is_pending() {
        try (Dataspace dataspace = create(1)) {
            DataspaceServer server = dataspace.server();
            assertThrows(DataspaceTimeoutException.class, () -> server.handle(Request.get(0, 1, "x"), Duration.ZERO));
            IllegalStateException early = assertThrows(IllegalStateException.class,
                    () -> server.handle(Request.put(0, 2, "y", bytes("v")), Duration.ZERO));
            assertTrue(early.getMessage().contains("request 1 (GET \"x\") is still pending"), early.getMessage());
        }
    }

    // ---- Rule 6: fair wake-up ----------------------------------------------------------------------------------

    @Test
    void rule6_fair_wake_up_reads_before_the_first_get_are_satisfied_then_one_get_takes_it() throws Exception {
        try (Dataspace dataspace = create(6)) {
            Operation[] arrival = {Operation.READ, Operation.READ, Operation.GET, Operation.READ, Operation.GET};
            List<Started<byte[]>> waiters = new ArrayList<>();
            for (int i = 0; i < arrival.length; i++) {
                Replica replica = dataspace.open(i + 1);
                Operation operation = arrival[i];
                waiters.add(start("waiter-" + i,
                        () -> operation == Operation.READ ? replica.read("x") : replica.get("x")));
                awaitRequests(dataspace, i + 1);
            }
            Replica writer = dataspace.open(0);
            writer.put("x", bytes("one"));
            for (int i = 0; i < 3; i++) {
                assertEquals("one", text(waiters.get(i).future().get(10, TimeUnit.SECONDS)), "waiter " + i);
            }
            assertFalse(waiters.get(3).future().isDone(), "the read after the first get waits for the next put");
            assertFalse(waiters.get(4).future().isDone());
            writer.put("x", bytes("two"));
            assertEquals("two", text(waiters.get(3).future().get(10, TimeUnit.SECONDS)));
            assertEquals("two", text(waiters.get(4).future().get(10, TimeUnit.SECONDS)));
            assertTrue(writer.tryRead("x").isEmpty(), "the second get took the second tuple");
        }
    }

    @Test
    void rule6_fair_wake_up_gets_on_one_tag_are_served_in_arrival_order() throws Exception {
        try (Dataspace dataspace = create(5)) {
            List<Started<byte[]>> getters = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Replica replica = dataspace.open(i + 1);
                getters.add(start("getter-" + i, () -> replica.get("x")));
                awaitRequests(dataspace, i + 1);
            }
            Replica writer = dataspace.open(0);
            for (int i = 0; i < 4; i++) {
                writer.put("x", bytes("v" + i));
            }
            for (int i = 0; i < 4; i++) {
                assertEquals("v" + i, text(getters.get(i).future().get(10, TimeUnit.SECONDS)));
            }
        }
    }

    // ---- Rule 7: eviction is a typed error, at once -------------------------------------------------------------

    @Test
    void rule7_trailing_replica_needing_an_evicted_entry_gets_ReadLogEvictedException_at_once() throws Exception {
        try (Dataspace dataspace = create(2, capacity(3))) {
            Replica writer = dataspace.open(0);
            Replica leader = dataspace.open(1);
            for (int i = 0; i < 5; i++) {
                writer.put("t" + i, bytes("v" + i));
                assertEquals("v" + i, text(leader.get("t" + i)));
            }
            writer.put("t0", bytes("again"));
            Replica trailer = dataspace.open(1);
            ReadLogEvictedException evicted = assertThrows(ReadLogEvictedException.class, () -> trailer.get("t0"));
            assertEquals(1, evicted.processId());
            assertEquals(1, evicted.requestNumber());
            assertEquals(3, evicted.oldestRetained());
            assertEquals(5, evicted.highWaterMark());
            assertEquals(0, trailer.requestNumber());
            assertEquals("again", text(writer.tryRead("t0").orElseThrow()), "the get was not re-executed");
            Replica restarted = dataspace.open(1, 2);
            assertEquals("v2", text(restarted.get("t2")), "a replica within the log's reach is served");
            assertEquals(1, dataspace.statistics().evictedRequests());
        }
    }

    @Test
    void rule7_eviction_by_the_byte_budget_is_reported_the_same_way() throws Exception {
        DataspaceOptions options = DataspaceOptions.builder().readLogCapacity(100).readLogBudgetBytes(10).build();
        try (Dataspace dataspace = create(2, options)) {
            Replica writer = dataspace.open(0);
            Replica leader = dataspace.open(1);
            for (int i = 0; i < 4; i++) {
                writer.put("t" + i, new byte[6]);
                leader.get("t" + i);
            }
            ReadLogEvictedException evicted = assertThrows(ReadLogEvictedException.class,
                    () -> dataspace.open(1, 2).get("t2"));
            assertEquals(3, evicted.requestNumber());
            assertEquals(4, evicted.oldestRetained(), "one 6-byte entry fits a 10-byte budget");
            assertEquals(6, dataspace.open(1, 3).get("t3").length);
        }
    }

    @Test
    void rule7_an_item_larger_than_the_budget_is_still_served_to_the_next_replica() throws Exception {
        DataspaceOptions options = DataspaceOptions.builder().readLogBudgetBytes(0).build();
        try (Dataspace dataspace = create(2, options)) {
            dataspace.open(0).put("x", bytes("big"));
            assertEquals("big", text(dataspace.open(1).get("x")));
            assertEquals("big", text(dataspace.open(1).get("x")));
        }
    }

    // ---- Rule 8: divergence -------------------------------------------------------------------------------------

    @Test
    void rule8_replica_issuing_another_operation_or_tag_gets_ReplicaDivergenceException() throws Exception {
        try (Dataspace dataspace = create(1)) {
            Replica leader = dataspace.open(0);
            leader.put("x", bytes("v"));
            leader.read("x");
            Replica wrongTag = dataspace.open(0);
            ReplicaDivergenceException tag = assertThrows(ReplicaDivergenceException.class,
                    () -> wrongTag.put("y", bytes("v")));
            assertEquals(0, tag.processId());
            assertEquals(1, tag.requestNumber());
            assertEquals(Operation.PUT, tag.loggedOperation());
            assertEquals("x", tag.loggedTag());
            assertEquals(Operation.PUT, tag.requestedOperation());
            assertEquals("y", tag.requestedTag());
            assertEquals(0, wrongTag.requestNumber());
            Replica wrongKind = dataspace.open(0, 1);
            ReplicaDivergenceException kind = assertThrows(ReplicaDivergenceException.class,
                    () -> wrongKind.get("x"));
            assertEquals(Operation.READ, kind.loggedOperation());
            assertEquals(Operation.GET, kind.requestedOperation());
            assertEquals(2, kind.requestNumber());
            assertEquals("v", text(leader.read("x")), "nothing was executed for the diverging requests");
        }
    }

    @Test
    void rule8_joining_a_pending_request_with_another_kind_is_a_divergence() {
        try (Dataspace dataspace = create(1)) {
            DataspaceServer server = dataspace.server();
            assertThrows(DataspaceTimeoutException.class, () -> server.handle(Request.get(0, 1, "x"), Duration.ZERO));
            ReplicaDivergenceException divergence = assertThrows(ReplicaDivergenceException.class,
                    () -> server.handle(Request.read(0, 1, "x"), Duration.ZERO));
            assertEquals(Operation.GET, divergence.loggedOperation());
            assertEquals(Operation.READ, divergence.requestedOperation());
        }
    }

    // ---- Rule 9: close wakes blocked callers -------------------------------------------------------------------

    @Test
    void rule9_closing_a_replica_wakes_its_blocked_call_with_DataspaceClosedException() throws Exception {
        try (Dataspace dataspace = create(2)) {
            Replica replica = dataspace.open(1);
            Started<byte[]> call = start("getter", () -> replica.get("x"));
            awaitBlocked(call.thread());
            replica.close();
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> call.future().get(10, TimeUnit.SECONDS));
            DataspaceClosedException closed = assertInstanceOf(DataspaceClosedException.class, failure.getCause());
            assertFalse(closed.dataspaceClosed());
            assertEquals(1, closed.processId());
            assertEquals(1, closed.requestNumber());
            assertTrue(replica.isClosed());
            assertThrows(DataspaceClosedException.class, () -> replica.tryRead("x"));
            dataspace.open(0).put("x", bytes("v"));
            assertEquals("v", text(dataspace.open(1).get("x")), "the pending get survives its replica");
        }
    }

    @Test
    void rule9_closing_the_dataspace_wakes_every_blocked_caller() throws Exception {
        Dataspace dataspace = create(4);
        List<Started<byte[]>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Replica replica = dataspace.open(i);
            String tag = "t" + (i % 2);
            calls.add(start("waiter-" + i, () -> getOrRead(replica, tag)));
        }
        Replica joiner = dataspace.open(3);
        calls.add(start("joiner", () -> joiner.read("t1")));
        for (Started<byte[]> call : calls) {
            awaitBlocked(call.thread());
        }
        dataspace.close();
        for (Started<byte[]> call : calls) {
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> call.future().get(10, TimeUnit.SECONDS));
            assertTrue(assertInstanceOf(DataspaceClosedException.class, failure.getCause()).dataspaceClosed());
        }
        assertTrue(dataspace.isClosed());
        assertThrows(DataspaceClosedException.class, () -> dataspace.open(0));
        assertThrows(DataspaceClosedException.class,
                () -> dataspace.server().handle(Request.tryRead(0, 1, "x")));
        dataspace.close();
    }

    private static byte[] getOrRead(Replica replica, String tag) throws InterruptedException {
        return replica.processId() % 2 == 0 ? replica.get(tag) : replica.read(tag);
    }

    // ---- Cancelling a waiting request ---------------------------------------------------------------------------

    @Test
    void cancel_ends_a_waiting_get_for_every_replica_and_consumes_nothing() throws Exception {
        try (Dataspace dataspace = create(2)) {
            DataspaceServer server = dataspace.server();
            Replica writer = dataspace.open(0);
            Replica leader = dataspace.open(1);
            Replica trailer = dataspace.open(1);
            assertThrows(DataspaceTimeoutException.class, () -> leader.get("x", Duration.ZERO));
            Started<byte[]> blocked = start("trailer", () -> trailer.get("x"));
            awaitBlocked(blocked.thread());
            assertEquals(Optional.empty(), server.cancel(1, 1));
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> blocked.future().get(10, TimeUnit.SECONDS));
            DataspaceCancelledException cancelled = assertInstanceOf(DataspaceCancelledException.class,
                    failure.getCause());
            assertEquals(1, cancelled.processId());
            assertEquals(1, cancelled.requestNumber());
            assertEquals(Operation.GET, cancelled.operation());
            assertEquals("x", cancelled.tag());
            assertEquals(1, trailer.requestNumber(), "a cancelled request is complete: the replica goes past it");
            assertTrue(server.pendingRequest(1).isEmpty());
            writer.put("x", bytes("v"));
            assertEquals("v", text(writer.tryRead("x").orElseThrow()), "the cancelled get took nothing");
            assertThrows(DataspaceCancelledException.class, () -> leader.get("x"), "the retry learns the outcome");
            assertEquals(1, leader.requestNumber());
            assertThrows(DataspaceCancelledException.class, () -> dataspace.open(1).get("x", Duration.ZERO),
                    "a late replica reads the outcome from the log");
            assertThrows(DataspaceCancelledException.class, () -> server.handle(Request.get(1, 1, "x")));
            assertThrows(ReplicaDivergenceException.class, () -> server.handle(Request.read(1, 1, "x")));
            leader.put("y", bytes("w"));
            assertEquals(2, server.highWaterMark(1), "the process goes on with its next request");
            assertEquals("v", text(writer.tryRead("x").orElseThrow()));
        }
    }

    @Test
    void cancel_is_idempotent_and_a_late_cancel_returns_the_completed_outcome() throws Exception {
        try (Dataspace dataspace = create(2)) {
            DataspaceServer server = dataspace.server();
            assertThrows(DataspaceTimeoutException.class,
                    () -> server.handle(Request.read(1, 1, "x"), Duration.ZERO));
            assertEquals(Optional.empty(), server.cancel(1, 1));
            assertEquals(Optional.empty(), server.cancel(1, 1), "cancelling again changes nothing");
            assertThrows(DataspaceTimeoutException.class,
                    () -> server.handle(Request.get(1, 2, "y"), Duration.ZERO));
            server.handle(Request.put(0, 1, "y", bytes("w")));
            Reply late = server.cancel(1, 2).orElseThrow();
            assertEquals("w", text(late.data().orElseThrow()), "the get had received the data: it is not lost");
            assertEquals(Operation.GET, late.operation());
            assertEquals(1, late.processId());
            assertEquals(2, late.requestNumber());
            assertTrue(late.duplicate());
            assertEquals("w", text(server.cancel(1, 2).orElseThrow().data().orElseThrow()));
            assertEquals("w", text(server.handle(Request.get(1, 2, "y")).data().orElseThrow()));
            assertTrue(server.handle(Request.tryRead(0, 2, "y")).data().isEmpty(), "the get consumed the tuple");
            assertTrue(server.cancel(0, 1).orElseThrow().stored(), "a put completes at once: cancel changes nothing");
        }
    }

    @Test
    void cancel_refuses_requests_not_issued_and_reports_evicted_ones() throws Exception {
        try (Dataspace dataspace = create(2, capacity(2))) {
            DataspaceServer server = dataspace.server();
            server.handle(Request.put(1, 1, "x", bytes("v")));
            assertEquals("requestNumber must be <= 1 (the high-water mark of process 1): 2",
                    assertThrows(IllegalArgumentException.class, () -> server.cancel(1, 2)).getMessage());
            assertEquals("requestNumber must be >= 1: 0",
                    assertThrows(IllegalArgumentException.class, () -> server.cancel(1, 0)).getMessage());
            assertEquals("processId must be in [0, 1]: 2",
                    assertThrows(IllegalArgumentException.class, () -> server.cancel(2, 1)).getMessage());
            server.handle(Request.put(1, 2, "x", bytes("v")));
            server.handle(Request.put(1, 3, "x", bytes("v")));
            ReadLogEvictedException evicted = assertThrows(ReadLogEvictedException.class, () -> server.cancel(1, 1));
            assertEquals(1, evicted.requestNumber());
            assertEquals(2, evicted.oldestRetained());
            assertEquals(3, evicted.highWaterMark());
        }
        Dataspace closed = create(1);
        closed.close();
        assertThrows(DataspaceClosedException.class, () -> closed.server().cancel(0, 1));
    }

    @Test
    void cancel_and_put_racing_for_a_waiting_get_neither_lose_nor_duplicate_the_tuple() throws Exception {
        int rounds = SearchDepth.rounds(200);
        try (Dataspace dataspace = create(3)) {
            DataspaceServer server = dataspace.server();
            CyclicBarrier start = new CyclicBarrier(2);
            for (int round = 1; round <= rounds; round++) {
                long request = round;
                String tag = "t" + round;
                assertThrows(DataspaceTimeoutException.class,
                        () -> server.handle(Request.get(1, request, tag), Duration.ZERO));
                Started<Reply> put = start("put-" + round, () -> {
                    start.await(10, TimeUnit.SECONDS);
                    return server.handle(Request.put(0, request, tag, bytes("v" + request)));
                });
                start.await(10, TimeUnit.SECONDS);
                Optional<Reply> cancelled = server.cancel(1, request);
                put.future().get(10, TimeUnit.SECONDS);
                Optional<byte[]> left = server.handle(Request.tryRead(2, request, tag)).data();
                if (cancelled.isEmpty()) {
                    assertEquals("v" + round, text(left.orElseThrow()), "round " + round + ": the put was kept");
                    assertThrows(DataspaceCancelledException.class, () -> server.handle(Request.get(1, request, tag)));
                } else {
                    assertEquals("v" + round, text(cancelled.get().data().orElseThrow()), "round " + round);
                    assertTrue(left.isEmpty(), "round " + round + ": the get took the tuple");
                }
            }
        }
    }

    @Test
    void a_replica_cancels_the_get_it_left_pending_and_goes_on_with_another_call() throws Exception {
        try (Dataspace dataspace = create(2)) {
            Replica writer = dataspace.open(0);
            Replica leader = dataspace.open(1);
            Replica trailer = dataspace.open(1);
            assertEquals("replica of process 1 left no request pending to cancel",
                    assertThrows(IllegalStateException.class, leader::cancelPending).getMessage());
            assertThrows(DataspaceTimeoutException.class, () -> leader.get("x", Duration.ofMillis(1)));
            assertEquals(Optional.empty(), leader.cancelPending());
            assertEquals(1, leader.requestNumber());
            leader.put("gave-up", bytes("1"));
            assertThrows(IllegalStateException.class, leader::cancelPending, "nothing is left pending");
            writer.put("x", bytes("v"));
            assertEquals("v", text(writer.tryRead("x").orElseThrow()), "nothing was consumed");
            assertThrows(DataspaceCancelledException.class, () -> trailer.get("x"), "every replica sees the cancel");
            trailer.put("gave-up", bytes("1"));
            assertEquals(2, trailer.requestNumber());
            assertEquals(1, dataspace.statistics().duplicatesIgnored());
        }
    }

    @Test
    void a_replica_cancelling_too_late_receives_the_data_its_get_took() throws Exception {
        try (Dataspace dataspace = create(2)) {
            Replica writer = dataspace.open(0);
            Replica leader = dataspace.open(1);
            Replica trailer = dataspace.open(1);
            assertThrows(DataspaceTimeoutException.class, () -> leader.get("x", Duration.ZERO));
            writer.put("x", bytes("v"));
            assertEquals("v", text(leader.cancelPending().orElseThrow()));
            assertEquals(1, leader.requestNumber());
            assertEquals("v", text(trailer.get("x")), "the trailing replica receives the same data");
            assertTrue(writer.tryRead("x").isEmpty(), "the get consumed the tuple once");
        }
    }

    @Test
    void a_replica_interrupted_while_waiting_may_cancel_and_a_closed_one_may_not() throws Exception {
        try (Dataspace dataspace = create(2)) {
            Replica replica = dataspace.open(1);
            Started<Optional<byte[]>> call = start("getter", () -> {
                try {
                    replica.get("x");
                    throw new AssertionError("no data was put");
                } catch (InterruptedException interrupted) {
                    return replica.cancelPending();
                }
            });
            awaitBlocked(call.thread());
            call.thread().interrupt();
            assertEquals(Optional.empty(), call.future().get(10, TimeUnit.SECONDS));
            assertEquals(1, replica.requestNumber());
            assertThrows(DataspaceTimeoutException.class, () -> replica.read("y", Duration.ZERO));
            replica.close();
            assertThrows(DataspaceClosedException.class, replica::cancelPending);
            assertTrue(dataspace.server().pendingRequest(1).isPresent(), "closing a replica cancels nothing");
        }
    }

    @Test
    void cancelling_the_get_of_an_abandoned_process_leaves_the_tuple_to_the_next_waiter() throws Exception {
        try (Dataspace dataspace = create(3)) {
            DataspaceServer server = dataspace.server();
            Replica doomed = dataspace.open(1);
            Replica survivor = dataspace.open(2);
            assertThrows(DataspaceTimeoutException.class, () -> doomed.get("x", Duration.ZERO));
            Started<byte[]> waiting = start("survivor", () -> survivor.get("x"));
            awaitRequests(dataspace, 2);
            awaitBlocked(waiting.thread());
            doomed.close();
            Request abandoned = server.pendingRequest(1).orElseThrow();
            assertEquals(Optional.empty(), server.cancel(abandoned.processId(), abandoned.requestNumber()));
            dataspace.open(0).put("x", bytes("v"));
            assertEquals("v", text(waiting.future().get(10, TimeUnit.SECONDS)), "first in line once the get is gone");
        }
    }

    @Test
    void pendingRequest_names_the_read_or_get_a_process_waits_for() throws Exception {
        try (Dataspace dataspace = create(2)) {
            DataspaceServer server = dataspace.server();
            assertTrue(server.pendingRequest(1).isEmpty());
            server.handle(Request.put(1, 1, "y", bytes("w")));
            assertTrue(server.pendingRequest(1).isEmpty(), "a put never waits");
            assertThrows(DataspaceTimeoutException.class,
                    () -> server.handle(Request.get(1, 2, "x"), Duration.ZERO));
            Request pending = server.pendingRequest(1).orElseThrow();
            assertEquals(Operation.GET, pending.operation());
            assertEquals(1, pending.processId());
            assertEquals(2, pending.requestNumber());
            assertEquals("x", pending.tag());
            assertTrue(pending.data().isEmpty());
            assertTrue(server.pendingRequest(0).isEmpty());
            server.handle(Request.put(0, 1, "x", bytes("v")));
            assertTrue(server.pendingRequest(1).isEmpty(), "the put served it");
            assertEquals("processId must be in [0, 1]: 2", assertThrows(IllegalArgumentException.class,
                    () -> server.pendingRequest(2)).getMessage());
        }
    }

    // ---- Submitting without waiting -----------------------------------------------------------------------------

    @Test
    void submit_answers_at_once_when_the_request_needs_no_wait() throws Exception {
        try (Dataspace dataspace = create(2)) {
            DataspaceServer server = dataspace.server();
            CompletableFuture<Reply> put = server.submit(Request.put(0, 1, "x", bytes("v")));
            assertTrue(put.isDone());
            assertTrue(put.get().stored());
            CompletableFuture<Reply> get = server.submit(Request.get(1, 1, "x"));
            assertTrue(get.isDone(), "the data was there");
            assertEquals("v", text(get.get().data().orElseThrow()));
            assertFalse(get.get().duplicate());
            Reply again = server.submit(Request.get(1, 1, "x")).get(10, TimeUnit.SECONDS);
            assertEquals("v", text(again.data().orElseThrow()));
            assertTrue(again.duplicate(), "answered from the log");
            assertTrue(server.submit(Request.tryGet(0, 2, "x")).get().data().isEmpty());
        }
    }

    @Test
    void a_submitted_get_completes_when_a_put_serves_it_and_every_replica_receives_the_same_data() throws Exception {
        try (Dataspace dataspace = create(2)) {
            DataspaceServer server = dataspace.server();
            CompletableFuture<Reply> leader = server.submit(Request.get(1, 1, "x"));
            CompletableFuture<Reply> trailer = server.submit(Request.get(1, 1, "x"));
            assertFalse(leader.isDone());
            assertFalse(trailer.isDone());
            assertEquals(1, server.pendingRequest(1).orElseThrow().requestNumber());
            server.handle(Request.put(0, 1, "x", bytes("v")));
            assertEquals("v", text(leader.get(10, TimeUnit.SECONDS).data().orElseThrow()));
            assertFalse(leader.get().duplicate());
            assertEquals("v", text(trailer.get(10, TimeUnit.SECONDS).data().orElseThrow()));
            assertTrue(trailer.get().duplicate(), "the second submission joined the first");
            assertTrue(server.handle(Request.tryRead(0, 2, "x")).data().isEmpty(), "one tuple was consumed");
        }
    }

    @Test
    void cancelling_a_submitted_future_stops_waiting_but_leaves_the_request_pending() throws Exception {
        try (Dataspace dataspace = create(2)) {
            DataspaceServer server = dataspace.server();
            CompletableFuture<Reply> gaveUp = server.submit(Request.get(1, 1, "x"));
            assertTrue(gaveUp.cancel(true));
            assertThrows(CancellationException.class, gaveUp::join);
            CompletableFuture<Reply> timedOut = server.submit(Request.get(1, 1, "x"))
                    .orTimeout(1, TimeUnit.MILLISECONDS);
            ExecutionException late = assertThrows(ExecutionException.class,
                    () -> timedOut.get(10, TimeUnit.SECONDS));
            assertInstanceOf(TimeoutException.class, late.getCause());
            assertTrue(server.pendingRequest(1).isPresent(), "the request still waits, with its place in the queue");
            CompletableFuture<Reply> retry = server.submit(Request.get(1, 1, "x"));
            server.handle(Request.put(0, 1, "x", bytes("v")));
            assertEquals("v", text(retry.get(10, TimeUnit.SECONDS).data().orElseThrow()));
            assertTrue(gaveUp.isCancelled(), "a cancelled future stays cancelled");
            assertTrue(server.handle(Request.tryRead(0, 2, "x")).data().isEmpty(), "the get took the tuple");
        }
    }

    @Test
    void a_submitted_get_fails_with_DataspaceCancelledException_when_its_request_is_cancelled() throws Exception {
        try (Dataspace dataspace = create(2)) {
            DataspaceServer server = dataspace.server();
            CompletableFuture<Reply> waiting = server.submit(Request.get(1, 1, "x"));
            assertEquals(Optional.empty(), server.cancel(1, 1));
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> waiting.get(10, TimeUnit.SECONDS));
            DataspaceCancelledException cancelled = assertInstanceOf(DataspaceCancelledException.class,
                    failure.getCause());
            assertEquals(1, cancelled.requestNumber());
            ExecutionException again = assertThrows(ExecutionException.class,
                    () -> server.submit(Request.get(1, 1, "x")).get(10, TimeUnit.SECONDS));
            assertInstanceOf(DataspaceCancelledException.class, again.getCause());
        }
    }

    @Test
    void submit_reports_typed_failures_in_the_future_and_throws_caller_mistakes() throws Exception {
        Dataspace dataspace = create(2, capacity(1));
        DataspaceServer server = dataspace.server();
        server.handle(Request.put(0, 1, "x", bytes("v")));
        server.handle(Request.put(0, 2, "x", bytes("w")));
        ExecutionException evicted = assertThrows(ExecutionException.class,
                () -> server.submit(Request.read(0, 1, "x")).get(10, TimeUnit.SECONDS));
        assertInstanceOf(ReadLogEvictedException.class, evicted.getCause());
        ExecutionException diverged = assertThrows(ExecutionException.class,
                () -> server.submit(Request.put(0, 2, "y", bytes("w"))).get(10, TimeUnit.SECONDS));
        assertInstanceOf(ReplicaDivergenceException.class, diverged.getCause());
        assertEquals("requestNumber must be <= 3 (the next request of process 0): 5",
                assertThrows(IllegalArgumentException.class,
                        () -> server.submit(Request.tryRead(0, 5, "x"))).getMessage());
        assertThrows(NullPointerException.class, () -> server.submit(null));
        CompletableFuture<Reply> waiting = server.submit(Request.get(1, 1, "z"));
        assertThrows(IllegalStateException.class, () -> server.submit(Request.tryRead(1, 2, "z")),
                "request 1 of process 1 still waits");
        dataspace.close();
        ExecutionException closed = assertThrows(ExecutionException.class,
                () -> waiting.get(10, TimeUnit.SECONDS));
        assertTrue(assertInstanceOf(DataspaceClosedException.class, closed.getCause()).dataspaceClosed());
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> server.submit(Request.tryRead(0, 3, "x")).get(10, TimeUnit.SECONDS));
        assertInstanceOf(DataspaceClosedException.class, refused.getCause());
    }

    @Test
    void submitted_gets_by_the_thousand_wait_together_without_a_thread_each() throws Exception {
        int waiters = submittedWaiters();
        if (waiters < 100) {
            throw new IllegalStateException("submittedWaiters() must be >= 100: " + waiters);
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Dataspace dataspace = create(waiters + 1)) {
            DataspaceServer server = dataspace.server();
            List<CompletableFuture<CompletableFuture<Reply>>> submitted = new ArrayList<>();
            int threadsBefore = Thread.getAllStackTraces().size();
            for (int i = 0; i < waiters; i++) {
                Request get = Request.get(i + 1, 1, "t" + i);
                submitted.add(CompletableFuture.supplyAsync(() -> server.submit(get), pool));
            }
            List<CompletableFuture<Reply>> replies = new ArrayList<>();
            for (CompletableFuture<CompletableFuture<Reply>> submission : submitted) {
                replies.add(submission.get(10, TimeUnit.SECONDS));
            }
            int grown = Thread.getAllStackTraces().size() - threadsBefore;
            assertTrue(grown < 50, "submitting " + waiters + " waiting gets started " + grown + " threads");
            assertEquals(0, replies.stream().filter(CompletableFuture::isDone).count(), "no get had its data yet");
            List<CompletableFuture<Reply>> puts = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                Request put = Request.put(0, i + 1, "t" + i, bytes("v" + i));
                puts.add(i == 0 ? CompletableFuture.completedFuture(server.handle(put))
                        : puts.get(i - 1).thenComposeAsync(previous -> server.submit(put), pool));
            }
            puts.get(waiters - 1).get(30, TimeUnit.SECONDS);
            for (int i = 0; i < waiters; i++) {
                assertEquals("v" + i, text(replies.get(i).get(10, TimeUnit.SECONDS).data().orElseThrow()));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- Restarting inside a pending request --------------------------------------------------------------------

    @Test
    void restart_at_the_high_water_mark_while_that_request_waits_resumes_inside_it() throws Exception {
        try (Dataspace dataspace = create(2)) {
            DataspaceServer server = dataspace.server();
            Replica writer = dataspace.open(0);
            Replica original = dataspace.open(1);
            original.put("mine", bytes("m"));
            assertThrows(DataspaceTimeoutException.class, () -> original.get("x", Duration.ZERO));
            original.close();
            assertEquals(2, server.highWaterMark(1));
            Replica restarted = dataspace.open(1, 2);
            assertEquals(1, restarted.requestNumber(), "request 2 is still pending: the replica resumes inside it");
            assertThrows(DataspaceTimeoutException.class, () -> restarted.get("x", Duration.ZERO),
                    "the repeated get joins the pending request");
            writer.put("x", bytes("v"));
            assertEquals("v", text(restarted.get("x")));
            assertEquals(2, restarted.requestNumber());
            restarted.put("next", bytes("n"));
            assertEquals(3, server.highWaterMark(1), "the process goes on with request 3");
            assertEquals(2, dataspace.open(1, 2).requestNumber(), "request 2 completed: a restart at 2 follows it");
            assertTrue(writer.tryRead("x").isEmpty(), "the get consumed the tuple once");
        }
    }

    @Test
    void a_replica_resumed_inside_a_pending_request_that_issues_another_call_diverges() {
        try (Dataspace dataspace = create(1)) {
            Replica original = dataspace.open(0);
            assertThrows(DataspaceTimeoutException.class, () -> original.read("x", Duration.ZERO));
            Replica restarted = dataspace.open(0, 1);
            ReplicaDivergenceException divergence = assertThrows(ReplicaDivergenceException.class,
                    () -> restarted.put("y", bytes("v")));
            assertEquals(1, divergence.requestNumber());
            assertEquals(Operation.READ, divergence.loggedOperation());
            assertEquals(Operation.PUT, divergence.requestedOperation());
            assertEquals(0, restarted.requestNumber());
        }
    }

    // ---- Restarts, request numbers and the request-level interface --------------------------------------------

    @Test
    void restarted_replica_resumes_at_its_saved_request_number() throws Exception {
        try (Dataspace dataspace = create(2)) {
            Replica writer = dataspace.open(0);
            Replica original = dataspace.open(1);
            writer.put("a", bytes("1"));
            writer.put("b", bytes("2"));
            original.get("a");
            long saved = original.requestNumber();
            assertEquals("2", text(original.get("b")));
            original.close();
            Replica restarted = dataspace.open(1, saved);
            assertEquals(1, restarted.requestNumber());
            assertEquals(1, restarted.processId());
            assertEquals(2, restarted.processCount());
            assertEquals("2", text(restarted.get("b")));
            IllegalArgumentException ahead = assertThrows(IllegalArgumentException.class,
                    () -> dataspace.open(1, 3));
            assertEquals("savedRequestNumber must be in [0, 2] (the high-water mark of process 1): 3",
                    ahead.getMessage());
        }
    }

    @Test
    void request_level_interface_is_idempotent_per_request() throws Exception {
        try (Dataspace dataspace = create(2)) {
            DataspaceServer server = dataspace.server();
            server.handle(Request.put(0, 1, "x", bytes("v")));
            Reply first = server.handle(Request.get(1, 1, "x"));
            Reply again = server.handle(Request.get(1, 1, "x"));
            assertArrayEquals(first.data().orElseThrow(), again.data().orElseThrow());
            assertFalse(first.duplicate());
            assertTrue(again.duplicate());
            assertEquals(Operation.GET, again.operation());
            assertEquals(1, again.processId());
            assertEquals(1, again.requestNumber());
            assertEquals(1, server.highWaterMark(1));
            IllegalArgumentException gap = assertThrows(IllegalArgumentException.class,
                    () -> server.handle(Request.tryGet(1, 3, "x")));
            assertEquals("requestNumber must be <= 2 (the next request of process 1): 3", gap.getMessage());
            assertEquals(2, server.processCount());
        }
    }

    @Test
    void a_replica_is_one_sequential_process() throws Exception {
        try (Dataspace dataspace = create(1)) {
            Replica replica = dataspace.open(0);
            Started<byte[]> call = start("getter", () -> replica.get("x"));
            awaitBlocked(call.thread());
            IllegalStateException busy = assertThrows(IllegalStateException.class, () -> replica.tryRead("y"));
            assertTrue(busy.getMessage().contains("already running a call"), busy.getMessage());
            replica.close();
            assertThrows(ExecutionException.class, () -> call.future().get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void statistics_count_operations_duplicates_log_hits_evictions_and_lag() throws Exception {
        try (Dataspace dataspace = create(2, capacity(2))) {
            Replica writer = dataspace.open(0);
            Replica leader = dataspace.open(1);
            writer.put("a", bytes("1"));
            writer.putIfAbsent("b", bytes("2"));
            leader.read("a");
            leader.get("a");
            leader.tryRead("b");
            leader.tryGet("b");
            Replica trailer = dataspace.open(1, 2);
            trailer.tryRead("b");
            dataspace.open(0, 1).putIfAbsent("b", bytes("2"));
            assertThrows(ReadLogEvictedException.class, () -> dataspace.open(1).read("a"));
            DataspaceStatistics statistics = dataspace.statistics();
            assertEquals(1, statistics.requests(Operation.PUT));
            assertEquals(2, statistics.requests(Operation.PUT_IF_ABSENT));
            assertEquals(2, statistics.requests(Operation.READ));
            assertEquals(1, statistics.requests(Operation.GET));
            assertEquals(2, statistics.requests(Operation.TRY_READ));
            assertEquals(1, statistics.requests(Operation.TRY_GET));
            assertEquals(9, statistics.totalRequests());
            assertEquals(1, statistics.duplicatesIgnored());
            assertEquals(1, statistics.servedFromLog());
            assertEquals(0, statistics.joinedPending());
            assertEquals(2, statistics.evictions(), "process 1 logged 4 requests in a log of 2");
            assertEquals(1, statistics.evictedRequests());
            assertEquals(3, statistics.maxReplicaLag(), "a replica repeated request 1 at high-water mark 4");
        }
    }

    @Test
    void bad_arguments_name_the_parameter_the_value_and_the_bound() {
        DataspaceOptions options = DataspaceOptions.builder().maxTagLength(3).maxDataBytes(4).build();
        try (Dataspace dataspace = create(2, options)) {
            Replica replica = dataspace.open(0);
            assertEquals("tag length must be <= 3 chars: 4", assertThrows(IllegalArgumentException.class,
                    () -> replica.put("long", new byte[1])).getMessage());
            assertEquals("data length must be <= 4 bytes: 5", assertThrows(IllegalArgumentException.class,
                    () -> replica.put("x", new byte[5])).getMessage());
            assertEquals("tag must not be empty", assertThrows(IllegalArgumentException.class,
                    () -> replica.tryRead("")).getMessage());
            assertEquals("tag", assertThrows(NullPointerException.class, () -> replica.read(null)).getMessage());
            assertEquals("data", assertThrows(NullPointerException.class,
                    () -> replica.put("x", null)).getMessage());
            assertEquals("timeout must be >= 0: PT-1S", assertThrows(IllegalArgumentException.class,
                    () -> replica.get("x", Duration.ofSeconds(-1))).getMessage());
            assertEquals("processId must be in [0, 1]: 2", assertThrows(IllegalArgumentException.class,
                    () -> dataspace.open(2)).getMessage());
            assertEquals("processId must be in [0, 1]: -1", assertThrows(IllegalArgumentException.class,
                    () -> dataspace.server().highWaterMark(-1)).getMessage());
            assertEquals("data length must be <= 4 bytes: 9", assertThrows(IllegalArgumentException.class,
                    () -> dataspace.server().handle(Request.put(1, 1, "x", new byte[9]))).getMessage());
            assertEquals(0, replica.requestNumber(), "rejected calls issue no request");
            assertEquals(0, dataspace.statistics().totalRequests());
        }
        assertEquals("processCount must be >= 1: 0", assertThrows(IllegalArgumentException.class,
                () -> create(0)).getMessage());
    }

    @Test
    void a_huge_timeout_waits_like_no_timeout() throws Exception {
        try (Dataspace dataspace = create(2)) {
            Replica reader = dataspace.open(1);
            Started<byte[]> call = start("reader", () -> reader.read("x", Duration.ofSeconds(Long.MAX_VALUE)));
            awaitBlocked(call.thread());
            dataspace.open(0).put("x", bytes("v"));
            assertEquals("v", text(call.future().get(10, TimeUnit.SECONDS)));
        }
    }
}
