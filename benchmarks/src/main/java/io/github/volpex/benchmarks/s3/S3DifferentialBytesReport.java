package io.github.volpex.benchmarks.s3;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.Chunking;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.erasure.IdaCodec;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The bytes a commit sends to nine S3 endpoints (S3Proxy on loopback, in memory, each behind a {@link ThrottledRelay}
 * that counts without limiting), differential beside full: a state of {@code stateMiB} MiB (64 by default) in 16 KiB
 * blocks, IDA (6, 3). After a first commit, each of {@code rounds} rounds (10 by default) changes one byte in each of
 * 10% of the blocks, chosen at random, and commits; then a commit of an unchanged state. What is counted is every
 * byte the clients wrote to the servers — fragments, index copies, markers, and the requests themselves (HTTP
 * headers, signatures, listings, deletes) — against the bound no differential commit can avoid: the changed blocks ×
 * n/m plus the nine index copies. Bytes are counted, not timed, so one run is exact.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar io.github.volpex.benchmarks.s3.S3DifferentialBytesReport \
 *     [stateMiB [rounds]]
 * }</pre>
 */
public final class S3DifferentialBytesReport {

    private static final String JOB = "job";

    private S3DifferentialBytesReport() {
    }

    /**
     * Prints the table.
     *
     * @param args the state's size in MiB and the number of rounds (optional, 64 and 10 by default)
     * @throws Exception if a server does not start or a commit fails
     */
    public static void main(String[] args) throws Exception {
        int stateMiB = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int blockBytes = Chunking.DEFAULT_BLOCK_BYTES;
        byte[] state = new byte[stateMiB << 20];
        SplittableRandom random = new SplittableRandom(1);
        random.nextBytes(state);
        int blocks = state.length / blockBytes;
        ExecutorService io = Executors.newFixedThreadPool(9);
        try (S3Endpoints fullEndpoints = S3Endpoints.start(9, 0, io);
             S3Endpoints diffEndpoints = S3Endpoints.start(9, 0, io)) {
            CheckpointStore full = CheckpointStore.perennial(IdaCodec.systematic(6, 3),
                    fullEndpoints.repositories()).executor(io).build();
            CheckpointStore differential = CheckpointStore.perennial(IdaCodec.systematic(6, 3),
                    diffEndpoints.repositories()).executor(io).differential(Chunking.fixed(blockBytes)).build();
            full.commit(JOB, state);
            differential.commit(JOB, state);
            System.out.println("| round | changed blocks | full commit, bytes sent | differential commit, bytes "
                    + "sent | differential / full | bound: changed × n/m + index copies | differential / bound |");
            System.out.println("|---|---|---|---|---|---|---|");
            long totalFull = 0;
            long totalDiff = 0;
            long totalBound = 0;
            for (int round = 1; round <= rounds; round++) {
                int[] order = random.ints(0, blocks).distinct().limit(blocks / 10).toArray();
                for (int block : order) {
                    state[block * blockBytes + random.nextInt(blockBytes)] ^= (byte) (1 + random.nextInt(255));
                }
                long fullBefore = fullEndpoints.upstreamBytes();
                full.commit(JOB, state);
                long fullSent = fullEndpoints.upstreamBytes() - fullBefore;
                long before = diffEndpoints.upstreamBytes();
                FragmentIndex index = differential.commit(JOB, state);
                long sent = diffEndpoints.upstreamBytes() - before;
                long bound = (long) Math.ceil((double) order.length * blockBytes * index.n() / index.m())
                        + (long) index.n() * index.toBytes().length;
                totalFull += fullSent;
                totalDiff += sent;
                totalBound += bound;
                System.out.printf("| %d | %d of %d | %,d | %,d | %.4f | %,d | %.4f |%n", round, order.length, blocks,
                        fullSent, sent, (double) sent / fullSent, bound, (double) sent / bound);
            }
            System.out.printf("| all %d | | %,d | %,d | %.4f | %,d | %.4f |%n", rounds, totalFull, totalDiff,
                    (double) totalDiff / totalFull, totalBound, (double) totalDiff / totalBound);
            long before = diffEndpoints.upstreamBytes();
            differential.commit(JOB, state);
            long unchangedSent = diffEndpoints.upstreamBytes() - before;
            System.out.printf("%nunchanged state: %,d bytes sent, %.4f %% of the %,d-byte state%n", unchangedSent,
                    100.0 * unchangedSent / state.length, state.length);
            if (!Arrays.equals(state, differential.recover(JOB).orElseThrow().toByteArray())) {
                throw new IllegalStateException("the differential store did not recover the last state");
            }
            full.close();
            differential.close();
        } finally {
            io.shutdownNow();
        }
    }
}
