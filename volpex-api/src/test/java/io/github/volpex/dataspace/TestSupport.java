package io.github.volpex.dataspace;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Small helpers shared by the tests. */
final class TestSupport {

    private TestSupport() {
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] data) {
        return new String(data, StandardCharsets.UTF_8);
    }

    /** Waits (polling, at most 10 s) until the dataspace has handled at least {@code count} requests. */
    static void awaitRequests(Dataspace dataspace, long count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (dataspace.statistics().totalRequests() < count) {
            if (System.nanoTime() > deadline) {
                fail("only " + dataspace.statistics().totalRequests() + " of " + count + " requests arrived");
            }
            Thread.sleep(1);
        }
    }

    /** Waits (polling, at most 10 s) until the thread is parked or waiting. */
    static void awaitBlocked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() > deadline) {
                fail("thread " + thread.getName() + " did not block: " + thread.getState());
            }
            Thread.sleep(1);
        }
    }

    /** Runs a call on a new platform thread; the future completes with its result or exception. */
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
