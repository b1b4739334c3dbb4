package io.github.volpex.examples.sieve;

import io.github.volpex.dataspace.Replica;
import io.github.volpex.examples.replication.Bytes;
import io.github.volpex.examples.replication.ReplicatedJob;
import java.util.BitSet;

/**
 * The Sieve of Eratosthenes as a parallel program over the dataspace, in the style of Kanna et al. §IV-B: the numbers
 * {@code 2..limit} are cut into one block per process; process 0 finds the sieving primes (those up to √limit, all in
 * its own block) and publishes them one number per {@code put}, as the paper's program does; every process
 * {@code read}s them in order and strikes their multiples from its block; process 0 then {@code get}s every block's
 * count and adds them up.
 */
public final class Sieve {

    /** The largest limit: blocks are {@link BitSet}s, indexed by {@code int}. */
    public static final long MAX_LIMIT = 1_000_000_000L;

    private final long limit;

    private Sieve(long limit) {
        this.limit = limit;
    }

    /**
     * Describes a sieve up to {@code limit}.
     *
     * @param limit the largest number examined, {@code ≥ 4}
     * @return the sieve
     */
    public static Sieve upTo(long limit) {
        if (limit < 4 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in [4, " + MAX_LIMIT + "]: " + limit);
        }
        return new Sieve(limit);
    }

    /**
     * Checks that {@code processes} processes can share the work: process 0's block must hold every sieving prime.
     *
     * @param processes the number of logical processes
     * @throws IllegalArgumentException if there are too many processes for the limit
     */
    public void requireFeasible(int processes) {
        long sqrt = (long) Math.sqrt((double) limit);
        if (blockEnd(0, processes) <= sqrt) {
            throw new IllegalArgumentException("processes must be <= " + (limit - 1) / (sqrt + 1)
                    + " for limit " + limit + " (process 0 must hold every prime up to √limit): " + processes);
        }
    }

    private long blockStart(int process, int processes) {
        return 2 + (limit - 1) * process / processes;
    }

    private long blockEnd(int process, int processes) {
        return 1 + (limit - 1) * (process + 1) / processes;
    }

    /**
     * The program of one process: returns its block's prime count, or for process 0 the total count.
     *
     * @return the program
     */
    public ReplicatedJob.Program<Long> program() {
        return this::run;
    }

    private long run(Replica replica) throws InterruptedException {
        int process = replica.processId();
        int processes = replica.processCount();
        long start = blockStart(process, processes);
        long end = blockEnd(process, processes);
        BitSet composite = new BitSet((int) (end - start + 1));
        long sqrt = (long) Math.sqrt((double) limit);
        int published = 0;
        if (process == 0) {
            for (long p = 2; p <= sqrt; p++) {
                if (!composite.get((int) (p - start))) {
                    replica.put("prime/" + published++, Bytes.ofLong(p));
                    strike(composite, p, start, end);
                }
            }
            replica.put("prime/" + published, Bytes.ofLong(0));
        } else {
            for (int i = 0; ; i++) {
                long p = Bytes.toLong(replica.read("prime/" + i));
                if (p == 0) {
                    break;
                }
                strike(composite, p, start, end);
            }
        }
        long count = (end - start + 1) - composite.cardinality();
        if (process != 0) {
            replica.put("count/" + process, Bytes.ofLong(count));
            return count;
        }
        long total = count;
        for (int q = 1; q < processes; q++) {
            total += Bytes.toLong(replica.get("count/" + q));
        }
        return total;
    }

    /** Strikes the multiples of {@code p} from {@code max(p², start)} to {@code end}. */
    private static void strike(BitSet composite, long p, long start, long end) {
        long first = Math.max(p * p, (start + p - 1) / p * p);
        for (long multiple = first; multiple <= end; multiple += p) {
            composite.set((int) (multiple - start));
        }
    }

    /**
     * Counts the primes up to the limit sequentially: the reference the parallel result is checked against.
     *
     * @return π(limit)
     */
    public long sequentialCount() {
        BitSet composite = new BitSet((int) (limit + 1));
        long count = 0;
        for (long p = 2; p <= limit; p++) {
            if (!composite.get((int) p)) {
                count++;
                for (long multiple = p * p; multiple <= limit; multiple += p) {
                    composite.set((int) multiple);
                }
            }
        }
        return count;
    }
}
