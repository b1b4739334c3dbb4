package io.github.volpex.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.dataspace.Dataspace;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Helpers of the contracts: text payloads, bounded waits and calls on threads of their own. */
final class ContractSupport {

    /** The longest a helper waits for a condition before it fails the test. */
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private ContractSupport() {
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] data) {
        return new String(data, StandardCharsets.UTF_8);
    }

    /** Waits (polling, at most 10 s) until the dataspace has handled at least {@code count} requests. */
    static void awaitRequests(Dataspace dataspace, long count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (dataspace.statistics().totalRequests() < count) {
            if (System.nanoTime() - deadline > 0) {
                fail("only " + dataspace.statistics().totalRequests() + " of " + count + " requests arrived");
            }
            Thread.sleep(1);
        }
    }

    /** Waits (polling, at most 10 s) until the thread is parked or waiting. */
    static void awaitBlocked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() - deadline > 0) {
                fail("thread " + thread.getName() + " did not block: " + thread.getState());
            }
            Thread.sleep(1);
        }
    }

    /** Runs a call on a new daemon thread; the future completes with its result or exception. */
    static <T> Started<T> start(String name, Callable<T> call) {
        CompletableFuture<T> future = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                future.complete(call.call());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return new Started<>(thread, future);
    }

    /** A started thread and the future of its result. */
    record Started<T>(Thread thread, CompletableFuture<T> future) {
    }
}
