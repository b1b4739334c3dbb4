package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The per-job state machine of commits ({@link CommitQueue}) against a model written the plain way: random sequences
 * of asynchronous and synchronous submissions, ends of the running commit (and ends claimed by commits that are not
 * running), closes and abandonments. After every step the queue must agree with the model on what runs, what waits,
 * what each submission decided and what it superseded, and keep its invariants: nothing waits while nothing runs, at
 * most one asynchronous commit waits and it waits last, every commit accepted is exactly once run, superseded or
 * abandoned.
 */
class CommitQueueModelTest {

    /** A queued commit, told apart by its number. */
    record Item(int id, boolean asynchronous) implements CommitQueue.Entry {
    }

    enum Op {
        ASYNC,
        SYNC,
        FINISH,
        FINISH_OTHER,
        CLOSE,
        ABANDON
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, Arbitraries.just(Op.ASYNC)),
                net.jqwik.api.Tuple.of(3, Arbitraries.just(Op.SYNC)),
                net.jqwik.api.Tuple.of(6, Arbitraries.just(Op.FINISH)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Op.FINISH_OTHER)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Op.CLOSE)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(Op.ABANDON))).list().ofMaxSize(60);
    }

    @Property(tries = 500)
    void the_queue_behaves_as_its_model(@ForAll("ops") List<Op> ops) {
        CommitQueue<Item> queue = new CommitQueue<>();
        Item running = null;
        List<Item> waiting = new ArrayList<>();
        boolean closed = false;
        int next = 0;
        Set<Integer> accepted = new HashSet<>();
        Set<Integer> ended = new HashSet<>();
        List<Item> ran = new ArrayList<>();
        for (Op op : ops) {
            switch (op) {
                case ASYNC, SYNC -> {
                    Item item = new Item(next++, op == Op.ASYNC);
                    if (closed) {
                        assertThrows(IllegalStateException.class, () -> queue.submit(item));
                        continue;
                    }
                    CommitQueue.Submitted<Item> submitted = queue.submit(item);
                    accepted.add(item.id());
                    Item superseded = !waiting.isEmpty() && waiting.get(waiting.size() - 1).asynchronous()
                            ? waiting.remove(waiting.size() - 1) : null;
                    assertSame(superseded, submitted.superseded(), ops.toString());
                    if (superseded != null) {
                        assertTrue(ended.add(superseded.id()), "superseded twice: " + superseded);
                    }
                    assertEquals(running == null, submitted.runsNow(), ops.toString());
                    if (running == null) {
                        running = item;
                        ran.add(item);
                    } else {
                        waiting.add(item);
                    }
                }
                case FINISH -> {
                    Item finished = running;
                    Item promoted = queue.finish(finished);
                    if (finished == null) {
                        assertNull(promoted);
                        continue;
                    }
                    assertTrue(ended.add(finished.id()), "ended twice: " + finished);
                    running = waiting.isEmpty() ? null : waiting.remove(0);
                    assertSame(running, promoted, ops.toString());
                    if (running != null) {
                        ran.add(running);
                    }
                }
                case FINISH_OTHER -> {
                    // Only the running commit ends: a commit that waits, was superseded or abandoned changes nothing.
                    Item other = waiting.isEmpty() ? new Item(-1, true) : waiting.get(0);
                    assertNull(queue.finish(other));
                }
                case CLOSE -> {
                    queue.close();
                    closed = true;
                }
                case ABANDON -> {
                    List<Item> expected = new ArrayList<>();
                    if (running != null) {
                        expected.add(running);
                    }
                    expected.addAll(waiting);
                    assertEquals(expected, queue.abandonAll());
                    expected.forEach(item -> assertTrue(ended.add(item.id()), "ended twice: " + item));
                    running = null;
                    waiting.clear();
                    closed = true;
                }
                default -> throw new AssertionError(op);
            }
            assertSame(running, queue.running(), ops.toString());
            assertEquals(waiting, queue.waiting(), ops.toString());
            assertEquals(running == null, queue.idle());
            assertTrue(running != null || waiting.isEmpty(), "something waits while nothing runs");
            long asynchronous = waiting.stream().filter(Item::asynchronous).count();
            assertTrue(asynchronous <= 1, "two asynchronous commits wait: " + waiting);
            assertTrue(asynchronous == 0 || waiting.get(waiting.size() - 1).asynchronous(),
                    "the waiting asynchronous commit is not last: " + waiting);
        }
        // Every commit accepted ran, waits, runs, or ended exactly once (superseded, finished, abandoned).
        Set<Integer> live = new HashSet<>();
        if (running != null) {
            live.add(running.id());
        }
        waiting.forEach(item -> live.add(item.id()));
        for (int id : accepted) {
            assertTrue(ended.contains(id) ^ live.contains(id), "commit " + id + " is lost or counted twice");
        }
        // Commits run in the order they were accepted.
        for (int i = 1; i < ran.size(); i++) {
            assertTrue(ran.get(i - 1).id() < ran.get(i).id(), "out of order: " + ran);
        }
    }

    @Test
    @Timeout(60)
    void a_synchronous_caller_waits_for_its_turn_and_learns_when_it_was_abandoned() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CommitQueue<Item> queue = new CommitQueue<>();
            Item first = new Item(0, true);
            assertTrue(queue.submit(first).runsNow());
            Item second = new Item(1, false);
            Item third = new Item(2, false);
            assertFalse(queue.submit(second).runsNow());
            assertFalse(queue.submit(third).runsNow());
            CountDownLatch waiting = new CountDownLatch(2);
            Future<Boolean> secondTurn = threads.submit(() -> {
                waiting.countDown();
                return queue.awaitTurn(second);
            });
            Future<Boolean> thirdTurn = threads.submit(() -> {
                waiting.countDown();
                return queue.awaitTurn(third);
            });
            assertTrue(waiting.await(30, TimeUnit.SECONDS));
            assertSame(second, queue.finish(first));
            assertTrue(secondTurn.get(30, TimeUnit.SECONDS));
            assertEquals(List.of(second, third), queue.abandonAll());
            assertFalse(thirdTurn.get(30, TimeUnit.SECONDS), "an abandoned commit's caller must be told");
            assertThrows(IllegalStateException.class, () -> queue.submit(new Item(3, true)));
        } finally {
            threads.shutdownNow();
        }
    }
}
