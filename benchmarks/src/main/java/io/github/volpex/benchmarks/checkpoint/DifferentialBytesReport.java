package io.github.volpex.benchmarks.checkpoint;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.Chunking;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes a commit writes to its repositories, differential beside full: a state of {@code stateMiB} MiB (64 by
 * default) in 16 KiB blocks, IDA (6, 3) on nine in-memory repositories that count every byte put. After a first
 * commit, each round changes one byte in each of 10% of the blocks, chosen at random, and commits; the bound is the
 * changed blocks × n/m plus the index copies (what a perfect differential commit could not avoid). Segments of which
 * less than half is still referred to are compacted by the commit that finds them so, which shows as rounds that write
 * more; the totals give the amortised figure, and the stored bytes against the state's the space amplification. Then
 * a commit of an unchanged state, against the state's size. Bytes are counted, not timed, so one run is exact.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar io.github.volpex.benchmarks.checkpoint.DifferentialBytesReport [stateMiB]
 * }</pre>
 */
public final class DifferentialBytesReport {

    private static final int ROUNDS = 30;
    private static final String JOB = "job";

    private DifferentialBytesReport() {
    }

    /** An in-memory repository that counts the bytes put on it. */
    private static final class Counting implements FragmentRepository {
        private final FragmentRepository delegate;
        private final AtomicLong bytes;

        Counting(FragmentRepository delegate, AtomicLong bytes) {
            this.delegate = delegate;
            this.bytes = bytes;
        }

        @Override
        public String id() {
            return delegate.id();
        }

        @Override
        public void put(String key, byte[] content) throws IOException {
            bytes.addAndGet(content.length);
            delegate.put(key, content);
        }

        @Override
        public Optional<byte[]> get(String key) throws IOException {
            return delegate.get(key);
        }

        @Override
        public boolean delete(String key) throws IOException {
            return delegate.delete(key);
        }

        @Override
        public List<String> list(String prefix) throws IOException {
            return delegate.list(prefix);
        }
    }

    private static CheckpointStore store(AtomicLong bytes, Chunking chunking) {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            repositories.add(new Counting(FragmentRepository.inMemory("memory-" + i), bytes));
        }
        CheckpointStore.Builder builder = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories);
        return (chunking == null ? builder : builder.differential(chunking)).build();
    }

    /**
     * Prints the table.
     *
     * @param args the state's size in MiB (optional, 64 by default)
     */
    public static void main(String[] args) {
        int stateMiB = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int blockBytes = Chunking.DEFAULT_BLOCK_BYTES;
        byte[] state = new byte[stateMiB << 20];
        SplittableRandom random = new SplittableRandom(1);
        random.nextBytes(state);
        int blocks = state.length / blockBytes;
        AtomicLong fullBytes = new AtomicLong();
        AtomicLong diffBytes = new AtomicLong();
        CheckpointStore full = store(fullBytes, null);
        CheckpointStore differential = store(diffBytes, Chunking.fixed(blockBytes));
        full.commit(JOB, state);
        differential.commit(JOB, state);
        System.out.println("| round | changed blocks | full commit, bytes written | differential commit, bytes "
                + "written | differential / full | bound: changed × n/m + index copies | differential / bound |");
        System.out.println("|---|---|---|---|---|---|---|");
        double worst = 0;
        long totalFull = 0;
        long totalDiff = 0;
        long totalBound = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            int[] order = random.ints(0, blocks).distinct().limit(blocks / 10).toArray();
            for (int block : order) {
                state[block * blockBytes + random.nextInt(blockBytes)] ^= (byte) (1 + random.nextInt(255));
            }
            long fullBefore = fullBytes.get();
            full.commit(JOB, state);
            long fullWritten = fullBytes.get() - fullBefore;
            long before = diffBytes.get();
            FragmentIndex index = differential.commit(JOB, state);
            long written = diffBytes.get() - before;
            long bound = (long) Math.ceil((double) order.length * blockBytes * index.n() / index.m())
                    + (long) index.n() * index.toBytes().length;
            worst = Math.max(worst, (double) written / bound);
            totalFull += fullWritten;
            totalDiff += written;
            totalBound += bound;
            System.out.printf("| %d | %d of %d | %,d | %,d | %.4f | %,d | %.4f |%n", round, order.length, blocks,
                    fullWritten, written, (double) written / fullWritten, bound, (double) written / bound);
        }
        long before = diffBytes.get();
        differential.commit(JOB, state);
        long unchanged = diffBytes.get() - before;
        System.out.printf("| all %d | | %,d | %,d | %.4f | %,d | %.4f |%n", ROUNDS, totalFull, totalDiff,
                (double) totalDiff / totalFull, totalBound, (double) totalDiff / totalBound);
        System.out.printf("%nworst round, differential / bound: %.4f%n", worst);
        long stored = differential.checkpoints(JOB).stream().mapToLong(FragmentIndex::checkpointBytes).sum();
        System.out.printf("stored segment bytes after the last round: %,d, %.4f × the state%n", stored,
                (double) stored / state.length);
        System.out.printf("unchanged state: %,d bytes written, %.4f %% of the %,d-byte state%n", unchanged,
                100.0 * unchanged / state.length, state.length);
        if (!Arrays.equals(state, differential.recover(JOB).orElseThrow().toByteArray())) {
            throw new IllegalStateException("the differential store did not recover the last state");
        }
    }
}
