package io.github.volpex.dataspace;

import static io.github.volpex.dataspace.TestSupport.awaitRequests;
import static io.github.volpex.dataspace.TestSupport.bytes;
import static io.github.volpex.dataspace.TestSupport.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Liveness: every blocked read and get is woken by the matching put, exactly once; nothing is lost. Each test runs
 * 1,000 blocked callers on platform threads with small stacks.
 */
// A hang guard only (a lost wake-up blocks forever), far above the run time of a loaded machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LivenessTest {

    private static final int CALLERS = 1_000;
    private static final long STACK_BYTES = 256 * 1024;

    @Test
    void thousand_blocked_gets_on_distinct_tags_complete_once_their_tags_are_put() throws Exception {
        try (Dataspace dataspace = Dataspace.inProcess(CALLERS + 1)) {
            AtomicIntegerArray returns = new AtomicIntegerArray(CALLERS);
            ConcurrentHashMap<Integer, String> received = new ConcurrentHashMap<>();
            CountDownLatch done = new CountDownLatch(CALLERS);
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                int caller = i;
                Replica replica = dataspace.open(caller + 1);
                threads.add(startSmall("get-" + caller, () -> {
                    try {
                        received.put(caller, text(replica.get("t" + caller)));
                        returns.incrementAndGet(caller);
                    } catch (Throwable t) {
                        failures.add(t);
                    } finally {
                        done.countDown();
                    }
                }));
            }
            awaitRequests(dataspace, CALLERS);
            assertEquals(CALLERS, done.getCount(), "no get completes before its put");
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                order.add(i);
            }
            Collections.shuffle(order, new Random(7));
            Replica writer = dataspace.open(0);
            for (int caller : order) {
                writer.put("t" + caller, bytes("v" + caller));
            }
            assertTrue(done.await(30, TimeUnit.SECONDS), () -> done.getCount() + " gets never returned");
            assertEquals(List.of(), failures);
            for (int i = 0; i < CALLERS; i++) {
                assertEquals(1, returns.get(i), "get " + i + " returned once");
                assertEquals("v" + i, received.get(i));
                assertTrue(writer.tryRead("t" + i).isEmpty(), "tuple " + i + " was consumed");
            }
            for (Thread thread : threads) {
                thread.join(10_000);
            }
        }
    }

    @Test
    void thousand_blocked_gets_and_reads_on_one_tag_each_receive_exactly_one_put() throws Exception {
        try (Dataspace dataspace = Dataspace.inProcess(CALLERS + 1)) {
            ConcurrentHashMap<Integer, String> received = new ConcurrentHashMap<>();
            AtomicInteger returned = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(CALLERS);
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            int gets = 0;
            for (int i = 0; i < CALLERS; i++) {
                int caller = i;
                boolean get = caller % 4 != 3;
                gets += get ? 1 : 0;
                Replica replica = dataspace.open(caller + 1);
                startSmall("caller-" + caller, () -> {
                    try {
                        byte[] data = get ? replica.get("x") : replica.read("x");
                        if (received.put(caller, text(data)) != null) {
                            failures.add(new AssertionError("caller " + caller + " woken twice"));
                        }
                        returned.incrementAndGet();
                    } catch (Throwable t) {
                        failures.add(t);
                    } finally {
                        done.countDown();
                    }
                });
            }
            awaitRequests(dataspace, CALLERS);
            Replica writer = dataspace.open(0);
            for (int value = 0; value < gets; value++) {
                writer.put("x", bytes("v" + value));
            }
            // Reads queued after the last get wait for a further put.
            writer.put("x", bytes("last"));
            assertTrue(done.await(30, TimeUnit.SECONDS), () -> done.getCount() + " callers never returned");
            assertEquals(List.of(), failures);
            assertEquals(CALLERS, returned.get());
            Set<String> taken = new HashSet<>();
            for (int i = 0; i < CALLERS; i++) {
                if (i % 4 != 3) {
                    assertTrue(taken.add(received.get(i)), "value " + received.get(i) + " was taken twice");
                }
            }
            Set<String> expected = new HashSet<>();
            for (int value = 0; value < gets; value++) {
                expected.add("v" + value);
            }
            assertEquals(expected, taken, "every put before the last was taken by exactly one get");
            assertEquals("last", text(writer.tryRead("x").orElseThrow()), "no get was left to take the last put");
        }
    }

    private static Thread startSmall(String name, Runnable body) {
        Thread thread = new Thread(null, body, name, STACK_BYTES);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
