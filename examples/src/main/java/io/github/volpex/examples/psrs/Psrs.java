package io.github.volpex.examples.psrs;

import io.github.volpex.dataspace.Replica;
import io.github.volpex.examples.replication.Bytes;
import io.github.volpex.examples.replication.ReplicatedJob;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Parallel Sorting by Regular Sampling (Shi and Schaeffer, 1992) over the dataspace, as in Kanna et al. §IV-B.
 *
 * <p>Each of {@code P} processes generates its share of the keys (seeded by process, so every replica generates the
 * same), sorts it, and publishes {@code P} regular samples; process 0 gathers the {@code P²} samples and publishes
 * {@code P − 1} pivots; every process cuts its sorted keys at the pivots and sends piece {@code q} to process
 * {@code q}; every process merges the pieces it receives. Process 0 finally gathers a summary of every process's
 * output and checks the global order, the count and a multiset checksum against the input.
 */
public final class Psrs {

    /** What one process ends with: its output keys summarised, and the checksums of its input and output. */
    public record Summary(long count, long min, long max, long inputChecksum, long outputChecksum, boolean sorted) {

        long[] toLongs() {
            return new long[] {count, min, max, inputChecksum, outputChecksum, sorted ? 1 : 0};
        }

        static Summary ofLongs(long[] values) {
            return new Summary(values[0], values[1], values[2], values[3], values[4], values[5] == 1);
        }
    }

    /** The verdict process 0 reaches: the whole output is sorted, complete and a permutation of the input. */
    public record Verdict(long keys, boolean globallySorted, boolean checksumsMatch, Summary own) {

        /**
         * Returns whether the sort is correct.
         *
         * @return true if sorted, complete and a permutation of the input
         */
        public boolean correct() {
            return globallySorted && checksumsMatch;
        }
    }

    private final long keys;
    private final long seed;

    private Psrs(long keys, long seed) {
        this.keys = keys;
        this.seed = seed;
    }

    /**
     * Describes a sort of {@code keys} pseudo-random 64-bit keys.
     *
     * @param keys the number of keys, {@code ≥ 1}
     * @param seed the seed of the keys
     * @return the sort
     */
    public static Psrs of(long keys, long seed) {
        if (keys < 1 || keys > 1L << 28) {
            throw new IllegalArgumentException("keys must be in [1, " + (1L << 28) + "]: " + keys);
        }
        return new Psrs(keys, seed);
    }

    /**
     * The program of one process; process 0's result carries the verdict, the others' only their own summary.
     *
     * @return the program
     */
    public ReplicatedJob.Program<Verdict> program() {
        return this::run;
    }

    private Verdict run(Replica replica) throws InterruptedException {
        int process = replica.processId();
        int processes = replica.processCount();
        long from = keys * process / processes;
        long to = keys * (process + 1) / processes;
        long[] local = new long[(int) (to - from)];
        SplittableRandom random = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (process + 1)));
        long inputChecksum = 0;
        for (int i = 0; i < local.length; i++) {
            local[i] = random.nextLong();
            inputChecksum += mix(local[i]);
        }
        Arrays.sort(local);

        // Phase 1: regular samples to process 0, pivots back to everyone.
        long[] samples = new long[processes];
        for (int i = 0; i < processes; i++) {
            samples[i] = local.length == 0 ? Long.MAX_VALUE : local[(int) ((long) i * local.length / processes)];
        }
        replica.put("samples/" + process, Bytes.ofLongs(samples, 0, processes));
        if (process == 0) {
            long[] all = new long[processes * processes];
            for (int q = 0; q < processes; q++) {
                System.arraycopy(Bytes.toLongs(replica.get("samples/" + q)), 0, all, q * processes, processes);
            }
            Arrays.sort(all);
            long[] pivots = new long[processes - 1];
            for (int i = 1; i < processes; i++) {
                pivots[i - 1] = all[i * processes + processes / 2 - 1];
            }
            replica.put("pivots", Bytes.ofLongs(pivots, 0, pivots.length));
        }
        long[] pivots = Bytes.toLongs(replica.read("pivots"));

        // Phase 2: piece q of every process goes to process q.
        int cut = 0;
        for (int q = 0; q < processes; q++) {
            int next = q == processes - 1 ? local.length : upperBound(local, cut, pivots[q]);
            replica.put("piece/" + process + "/" + q, Bytes.ofLongs(local, cut, next));
            cut = next;
        }
        long[][] pieces = new long[processes][];
        for (int q = 0; q < processes; q++) {
            pieces[q] = Bytes.toLongs(replica.get("piece/" + q + "/" + process));
        }
        long[] merged = merge(pieces);

        long outputChecksum = 0;
        boolean sorted = true;
        for (int i = 0; i < merged.length; i++) {
            outputChecksum += mix(merged[i]);
            sorted &= i == 0 || merged[i - 1] <= merged[i];
        }
        Summary own = new Summary(merged.length,
                merged.length == 0 ? Long.MAX_VALUE : merged[0],
                merged.length == 0 ? Long.MIN_VALUE : merged[merged.length - 1],
                inputChecksum, outputChecksum, sorted);
        if (process != 0) {
            replica.put("summary/" + process, Bytes.ofLongs(own.toLongs(), 0, 6));
            return new Verdict(merged.length, sorted, true, own);
        }

        // Phase 3: process 0 checks the whole output.
        long total = own.count();
        long input = own.inputChecksum();
        long output = own.outputChecksum();
        boolean globallySorted = own.sorted();
        long previousMax = own.count() == 0 ? Long.MIN_VALUE : own.max();
        for (int q = 1; q < processes; q++) {
            Summary other = Summary.ofLongs(Bytes.toLongs(replica.get("summary/" + q)));
            total += other.count();
            input += other.inputChecksum();
            output += other.outputChecksum();
            globallySorted &= other.sorted();
            if (other.count() > 0) {
                globallySorted &= previousMax <= other.min();
                previousMax = other.max();
            }
        }
        return new Verdict(total, globallySorted && total == keys, input == output, own);
    }

    /** The first index in {@code [from, sorted.length)} whose key exceeds {@code pivot}. */
    private static int upperBound(long[] sorted, int from, long pivot) {
        int low = from;
        int high = sorted.length;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (sorted[middle] <= pivot) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    /** Merges sorted runs pairwise until one is left. */
    private static long[] merge(long[][] runs) {
        long[][] current = runs;
        while (current.length > 1) {
            long[][] next = new long[(current.length + 1) / 2][];
            for (int i = 0; i < next.length; i++) {
                next[i] = 2 * i + 1 < current.length ? mergeTwo(current[2 * i], current[2 * i + 1]) : current[2 * i];
            }
            current = next;
        }
        return current.length == 0 ? new long[0] : current[0];
    }

    private static long[] mergeTwo(long[] a, long[] b) {
        long[] out = new long[a.length + b.length];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < a.length && j < b.length) {
            out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
        }
        while (i < a.length) {
            out[k++] = a[i++];
        }
        while (j < b.length) {
            out[k++] = b[j++];
        }
        return out;
    }

    /** A bijective mixer: the sum of mixed keys identifies the multiset of keys with high probability. */
    private static long mix(long x) {
        long z = x * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 31)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 29);
    }
}
