package io.github.volpex.examples.cluster;

import io.github.volpex.dataspace.zookeeper.EmbeddedZooKeeper;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A failover of the ZooKeeper leader of an ensemble in this JVM: the leader is stopped, another is elected, and the
 * old one is started again, on a thread of its own; what happened is posted to the coordinator's event loop.
 */
final class LeaderFailover {

    /** How long the ensemble may take to elect another leader. */
    private static final long ELECTION_NANOS = TimeUnit.SECONDS.toNanos(30);

    private LeaderFailover() {
    }

    /**
     * Starts a failover on a daemon thread.
     *
     * @param ensemble the ensemble
     * @param events   where the outcome is posted
     * @param deferred posted when there was no leader to stop (the ensemble was electing one): try again later
     * @param ended    posted with a note of which servers stopped, were elected and restarted
     */
    static void start(EmbeddedZooKeeper ensemble, EventLoop events, Runnable deferred, Consumer<String> ended) {
        Thread thread = new Thread(() -> {
            try {
                int leader = ensemble.leader();
                if (leader < 0) {
                    events.post(deferred);
                    return;
                }
                ensemble.stop(leader);
                long deadline = System.nanoTime() + ELECTION_NANOS;
                int next;
                while ((next = ensemble.leader()) < 0 && System.nanoTime() - deadline < 0) {
                    Thread.sleep(20);
                }
                ensemble.restart(leader);
                String note = "leader server " + (leader + 1) + " stopped, server " + (next + 1) + " elected, server "
                        + (leader + 1) + " restarted";
                events.post(() -> ended.accept(note));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                events.post(() -> events.fail(new IllegalStateException("the ZooKeeper failover was interrupted", e)));
            } catch (RuntimeException e) {
                events.post(() -> events.fail(new IllegalStateException("the ZooKeeper failover failed", e)));
            }
        }, "zookeeper-failover");
        thread.setDaemon(true);
        thread.start();
    }
}
