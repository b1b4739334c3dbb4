package io.github.volpex.examples.replication;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.Replica;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a parallel program over a dataspace with every logical process replicated: {@code replicas} threads per
 * process, each opening its own {@link Replica} with the same process id and running the same code.
 *
 * <p>This is what a grid middleware does when it places replicas of a process on several volatile machines; here the
 * machines are threads. The host application (not the library) owns the threads.
 *
 * @param <R> what one process computes; every replica of a process must compute an equal value
 */
public final class ReplicatedJob<R> {

    /** The code of one logical process. */
    @FunctionalInterface
    public interface Program<R> {

        /**
         * Runs the process through its replica handle.
         *
         * @param replica the replica's handle on the dataspace
         * @return what the process computed
         * @throws Exception if the process fails
         */
        R run(Replica replica) throws Exception;
    }

    private final Program<R> program;
    private final int replicas;
    private final Duration timeout;

    private ReplicatedJob(Program<R> program, int replicas, Duration timeout) {
        this.program = Objects.requireNonNull(program, "program");
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be >= 1: " + replicas);
        }
        this.replicas = replicas;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Describes a replicated run.
     *
     * @param program  the code of every logical process
     * @param replicas the replicas per process, {@code ≥ 1}
     * @param timeout  how long the whole run may take before it is abandoned
     * @param <R>      what one process computes
     * @return the job
     */
    public static <R> ReplicatedJob<R> of(Program<R> program, int replicas, Duration timeout) {
        return new ReplicatedJob<>(program, replicas, timeout);
    }

    /**
     * Runs every replica of every process of {@code dataspace} to completion and checks that the replicas of each
     * process computed equal results.
     *
     * @param dataspace the dataspace; closed if the run fails, so that no replica stays blocked
     * @return the result of each process, indexed by process id
     * @throws ReplicaMismatchException if two replicas of a process computed different results
     * @throws IllegalStateException    if a replica failed or the run timed out (the cause says which)
     * @throws InterruptedException     if interrupted while waiting
     */
    public List<R> run(Dataspace dataspace) throws InterruptedException {
        int processes = dataspace.processCount();
        ExecutorService threads = Executors.newFixedThreadPool(processes * replicas, runnable -> {
            Thread thread = new Thread(runnable);
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<List<Future<R>>> futures = new ArrayList<>();
            for (int p = 0; p < processes; p++) {
                List<Future<R>> ofProcess = new ArrayList<>();
                int process = p;
                for (int r = 0; r < replicas; r++) {
                    ofProcess.add(threads.submit(() -> {
                        try (Replica replica = dataspace.open(process)) {
                            return program.run(replica);
                        }
                    }));
                }
                futures.add(ofProcess);
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            List<R> results = new ArrayList<>();
            for (int p = 0; p < processes; p++) {
                R first = null;
                for (int r = 0; r < replicas; r++) {
                    R result = await(futures.get(p).get(r), deadline, dataspace, p, r);
                    if (r == 0) {
                        first = result;
                    } else if (!Objects.equals(first, result)) {
                        dataspace.close();
                        throw new ReplicaMismatchException(p, r, first, result);
                    }
                }
                results.add(first);
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }

    private R await(Future<R> future, long deadline, Dataspace dataspace, int process, int replica)
            throws InterruptedException {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            dataspace.close();
            throw new IllegalStateException("replica " + replica + " of process " + process + " failed: "
                    + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            dataspace.close();
            throw new IllegalStateException("the run did not finish within " + timeout + " (process " + process
                    + ", replica " + replica + " still running)", e);
        }
    }

    /** Two replicas of one process computed different results: the program is not deterministic. */
    public static final class ReplicaMismatchException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ReplicaMismatchException(int process, int replica, Object expected, Object actual) {
            super("replica " + replica + " of process " + process + " computed " + actual + " but replica 0 computed "
                    + expected);
        }
    }
}
