package io.github.volpex.dataspace.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.ReadLogEvictedException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The replica skeleton's state machine, over a scripted call: numbering, the request left pending, the busy flag. */
class AbstractReplicaTest {

    private static final RequestChecks CHECKS = RequestChecks.of(3,
            DataspaceOptions.builder().maxTagLength(8).maxDataBytes(4).build());

    /** What the scripted call does next. */
    enum Step { COMPLETE, TIME_OUT, INTERRUPT, CANCELLED, EVICTED }

    /** One call the skeleton made. */
    record Made(Operation operation, long requestNumber, String tag, byte[] data, WaitLimit limit) {
    }

    /** A replica whose call follows a script and records what the skeleton asked for. */
    static final class Scripted extends AbstractReplica {
        final ArrayDeque<Step> script = new ArrayDeque<>();
        final List<Made> calls = new ArrayList<>();
        final List<Long> cancels = new ArrayList<>();
        /** Set to hold the next call inside {@link #call} until released. */
        volatile CountDownLatch entered;
        volatile CountDownLatch release;
        volatile int closings;
        byte[] answer = {7};

        Scripted(long requestNumber) {
            super(CHECKS, 1, requestNumber);
        }

        @Override
        protected CallResult call(Operation operation, long requestNumber, String tag, byte[] data, WaitLimit wait)
                throws InterruptedException {
            calls.add(new Made(operation, requestNumber, tag, data, wait));
            if (release != null) {
                entered.countDown();
                release.await();
            }
            Step step = script.isEmpty() ? Step.COMPLETE : script.poll();
            switch (step) {
                case TIME_OUT -> throw new DataspaceTimeoutException(1, requestNumber, operation, tag, Duration.ZERO);
                case INTERRUPT -> throw new InterruptedException();
                case CANCELLED -> throw new DataspaceCancelledException(1, requestNumber, operation, tag);
                case EVICTED ->
                        throw new ReadLogEvictedException(1, requestNumber, requestNumber + 1, requestNumber + 5);
                default -> {
                    boolean read = !operation.isPut();
                    byte[] data2 = read && !tag.equals("absent") ? answer.clone() : null;
                    return new CallResult() {
                        @Override
                        public boolean stored() {
                            return operation.isPut();
                        }

                        @Override
                        public byte[] dataForCaller() {
                            return data2;
                        }
                    };
                }
            }
        }

        @Override
        protected Optional<byte[]> cancel(long requestNumber) {
            cancels.add(requestNumber);
            return Optional.empty();
        }

        @Override
        protected void onClose() {
            closings++;
        }
    }

    @Test
    void calls_are_numbered_from_the_opening_number_and_each_completed_call_advances_it() throws Exception {
        Scripted replica = new Scripted(41);
        assertEquals(41, replica.requestNumber());
        byte[] data = {1, 2};
        replica.put("a", data);
        assertTrue(replica.putIfAbsent("a", data));
        assertArrayEquals(new byte[] {7}, replica.read("a"));
        assertArrayEquals(new byte[] {7}, replica.get("a", Duration.ofSeconds(1)));
        assertEquals(Optional.empty(), replica.tryRead("absent"));
        assertArrayEquals(new byte[] {7}, replica.tryGet("a").orElseThrow());
        assertEquals(47, replica.requestNumber());
        List<Long> numbers = replica.calls.stream().map(Made::requestNumber).toList();
        assertEquals(List.of(42L, 43L, 44L, 45L, 46L, 47L), numbers);
        assertSame(data, replica.calls.get(0).data(), "the caller's array is handed on; the implementation copies");
        assertEquals(WaitLimit.immediate(), replica.calls.get(0).limit(), "a put never waits");
        assertEquals(WaitLimit.unbounded(), replica.calls.get(2).limit(), "a read without timeout waits unbounded");
        assertEquals(WaitLimit.of(Duration.ofSeconds(1)), replica.calls.get(3).limit());
        assertEquals(WaitLimit.immediate(), replica.calls.get(4).limit(), "a try-operation never waits");
        assertEquals(1, replica.processId());
        assertEquals(3, replica.processCount());
    }

    @Test
    void a_timed_out_call_leaves_its_request_pending_and_the_next_call_issues_it_again() throws Exception {
        Scripted replica = new Scripted(0);
        replica.script.add(Step.TIME_OUT);
        assertThrows(DataspaceTimeoutException.class, () -> replica.get("t", Duration.ZERO));
        assertEquals(0, replica.requestNumber(), "the request is pending, not complete");
        assertArrayEquals(new byte[] {7}, replica.get("t"));
        assertEquals(List.of(1L, 1L), replica.calls.stream().map(Made::requestNumber).toList());
        assertEquals(1, replica.requestNumber());
        assertThrows(IllegalStateException.class, replica::cancelPending, "the retry completed the request");
        assertEquals(List.of(), replica.cancels);
    }

    @Test
    void cancel_pending_cancels_the_request_an_interrupted_call_left_and_goes_past_it() {
        Scripted replica = new Scripted(5);
        replica.script.add(Step.INTERRUPT);
        assertThrows(InterruptedException.class, () -> replica.read("t"));
        assertEquals(Optional.empty(), replica.cancelPending());
        assertEquals(List.of(6L), replica.cancels);
        assertEquals(6, replica.requestNumber());
        IllegalStateException twice = assertThrows(IllegalStateException.class, replica::cancelPending);
        assertEquals("replica of process 1 left no request pending to cancel", twice.getMessage());
    }

    @Test
    void a_failure_that_is_no_outcome_changes_nothing_and_a_cancelled_outcome_is_gone_past() {
        Scripted replica = new Scripted(0);
        replica.script.add(Step.TIME_OUT);
        replica.script.add(Step.EVICTED);
        assertThrows(DataspaceTimeoutException.class, () -> replica.get("t", Duration.ZERO));
        assertThrows(ReadLogEvictedException.class, () -> replica.get("t"));
        assertEquals(0, replica.requestNumber(), "an eviction leaves the number");
        replica.cancelPending(); // still pending after the failed retry
        assertEquals(1, replica.requestNumber());

        replica.script.add(Step.CANCELLED);
        DataspaceCancelledException cancelled = assertThrows(DataspaceCancelledException.class,
                () -> replica.get("u"));
        assertEquals(2, cancelled.requestNumber());
        assertEquals(2, replica.requestNumber(), "a cancelled request is complete");
        assertThrows(IllegalStateException.class, replica::cancelPending, "nothing is pending after an outcome");
    }

    @Test
    void bad_arguments_are_rejected_before_any_request_is_issued() {
        Scripted replica = new Scripted(0);
        assertThrows(NullPointerException.class, () -> replica.put(null, new byte[1]));
        assertThrows(NullPointerException.class, () -> replica.put("a", null));
        assertEquals("tag length must be <= 8 chars: 9", assertThrows(IllegalArgumentException.class,
                () -> replica.tryRead("123456789")).getMessage());
        assertEquals("data length must be <= 4 bytes: 5", assertThrows(IllegalArgumentException.class,
                () -> replica.putIfAbsent("a", new byte[5])).getMessage());
        assertEquals("timeout must be >= 0: PT-1S", assertThrows(IllegalArgumentException.class,
                () -> replica.read("a", Duration.ofSeconds(-1))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> replica.get("", Duration.ZERO));
        assertEquals(List.of(), replica.calls);
        assertEquals(0, replica.requestNumber());
        assertEquals("processId must be in [0, 2]: 3", assertThrows(IllegalArgumentException.class,
                () -> new AbstractReplica(CHECKS, 3, 0) {
                    @Override
                    protected CallResult call(Operation o, long n, String t, byte[] d, WaitLimit w) {
                        throw new AssertionError();
                    }

                    @Override
                    protected Optional<byte[]> cancel(long n) {
                        throw new AssertionError();
                    }
                }).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Scripted(-1));
    }

    @Test
    void a_second_thread_cannot_run_a_call_while_one_runs_and_changes_nothing() throws Exception {
        Scripted replica = new Scripted(0);
        replica.entered = new CountDownLatch(1);
        replica.release = new CountDownLatch(1);
        CompletableFuture<byte[]> first = CompletableFuture.supplyAsync(() -> {
            try {
                return replica.get("t");
            } catch (InterruptedException ex) {
                throw new IllegalStateException(ex);
            }
        });
        assertTrue(replica.entered.await(10, TimeUnit.SECONDS));
        IllegalStateException busy = assertThrows(IllegalStateException.class, () -> replica.put("t", new byte[1]));
        assertEquals("replica of process 1 is already running a call on another thread; a replica is one sequential"
                + " process", busy.getMessage());
        assertThrows(IllegalStateException.class, replica::cancelPending);
        replica.close(); // allowed from any thread, while a call runs
        assertEquals(1, replica.closings);
        assertTrue(replica.isClosed());
        replica.release.countDown();
        assertArrayEquals(new byte[] {7}, first.get(10, TimeUnit.SECONDS));
        replica.release = null;
        assertEquals(1, replica.calls.size(), "the refused call issued nothing");
        assertEquals(1, replica.requestNumber());
        replica.put("t", new byte[1]); // the handle is free again (the implementation decides what closed means)
        assertEquals(2, replica.requestNumber());
    }

    @Test
    void closing_wakes_every_time_and_cancel_pending_on_a_closed_handle_with_nothing_pending_says_closed() {
        Scripted replica = new Scripted(3);
        replica.close();
        replica.close();
        assertEquals(2, replica.closings, "onClose runs on every close: waking is idempotent");
        DataspaceClosedException closed = assertThrows(DataspaceClosedException.class, replica::cancelPending);
        assertEquals(4, closed.requestNumber());
        assertFalse(closed.dataspaceClosed());
        assertEquals("Replica[process 1, request 3, closed]", replica.toString());
    }

    /** Any sequence of call results: the number counts exactly the completed requests, the pending one is tracked. */
    @Property(tries = 300)
    void the_number_advances_exactly_on_outcomes(@ForAll("steps") List<Step> steps) {
        Scripted replica = new Scripted(0);
        long completed = 0;
        boolean pending = false;
        for (Step step : steps) {
            replica.script.add(step);
            long before = replica.calls.size();
            try {
                replica.get("t", Duration.ZERO);
            } catch (RuntimeException | InterruptedException expected) {
                // each step's failure is checked through the state below
            }
            assertEquals(before + 1, replica.calls.size());
            assertEquals(completed + 1, replica.calls.get(replica.calls.size() - 1).requestNumber(),
                    "every call issues the request after the last completed one");
            switch (step) {
                case COMPLETE, CANCELLED -> {
                    completed++;
                    pending = false;
                }
                case TIME_OUT, INTERRUPT -> pending = true;
                default -> { }
            }
            assertEquals(completed, replica.requestNumber());
        }
        if (pending) {
            replica.cancelPending();
            assertEquals(completed + 1, replica.requestNumber());
        } else {
            assertThrows(IllegalStateException.class, replica::cancelPending);
            assertEquals(completed, replica.requestNumber());
        }
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        return Arbitraries.of(Step.class).list().ofMaxSize(40);
    }
}
