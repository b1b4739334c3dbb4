package io.github.volpex.benchmarks.checkpoint;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.Chunking;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * changed blocks × n/m plus the index copies (what a perfect differential commit could not avoid). A commit that
 * would keep more block bytes stored than the space bound allows (twice the live ones by default) compacts, which
 * shows as rounds that write more; the totals give the amortised figure, and the stored bytes against the state's
 * the space amplification. A third store commits the same states from a stream ({@code commit(String,
 * InputStream)}): its bytes written against the array commits', and the bytes it read back (the live blocks of the
 * segments its compactions dropped, which a stream cannot give twice). Then a commit of an unchanged state, against
 * the state's size. Bytes are counted, not
 * timed, so one run is exact.
 * Given space bounds after the size ({@link CheckpointStore.Builder#maxSpaceAmplification}), it runs the same rounds
 * once per bound instead and prints one row for each: the bytes written against the bound of the changed blocks and
 * the stored bytes against the state.
 *
 * <pre>{@code
 * java [-Drounds=30] -cp benchmarks/target/benchmarks.jar \
 *     io.github.volpex.benchmarks.checkpoint.DifferentialBytesReport [stateMiB [maxSpaceAmplification...]]
 * }</pre>
 */
public final class DifferentialBytesReport {

    /** The rounds of changes: 30, unless the system property {@code rounds} says otherwise. */
    private static final int ROUNDS = Integer.getInteger("rounds", 30);
    private static final String JOB = "job";

    private DifferentialBytesReport() {
    }

    /** An in-memory repository that counts the bytes put on it. */
    private static final class Counting implements FragmentRepository {
        private final FragmentRepository delegate;
        private final AtomicLong bytes;
        private final AtomicLong read;

        Counting(FragmentRepository delegate, AtomicLong bytes, AtomicLong read) {
            this.delegate = delegate;
            this.bytes = bytes;
            this.read = read;
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
            Optional<byte[]> content = delegate.get(key);
            content.ifPresent(c -> read.addAndGet(c.length));
            return content;
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
        return store(bytes, chunking, CheckpointStore.DEFAULT_MAX_SPACE_AMPLIFICATION);
    }

    private static CheckpointStore store(AtomicLong bytes, Chunking chunking, double maxSpaceAmplification) {
        return store(bytes, new AtomicLong(), chunking, maxSpaceAmplification);
    }

    private static CheckpointStore store(AtomicLong bytes, AtomicLong read, Chunking chunking,
                                         double maxSpaceAmplification) {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            repositories.add(new Counting(FragmentRepository.inMemory("memory-" + i), bytes, read));
        }
        CheckpointStore.Builder builder = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories);
        return (chunking == null ? builder
                : builder.differential(chunking).maxSpaceAmplification(maxSpaceAmplification)).build();
    }

    /** Changes one byte in each of 10% of the blocks, chosen at random; returns the blocks changed. */
    private static int[] changeTenPercent(byte[] state, SplittableRandom random, int blockBytes) {
        int blocks = state.length / blockBytes;
        int[] order = random.ints(0, blocks).distinct().limit(blocks / 10).toArray();
        for (int block : order) {
            state[block * blockBytes + random.nextInt(blockBytes)] ^= (byte) (1 + random.nextInt(255));
        }
        return order;
    }

    /** What no differential commit of {@code changed} blocks can avoid: their fragments and the index copies. */
    private static long bound(int changed, int blockBytes, FragmentIndex index) {
        return (long) Math.ceil((double) changed * blockBytes * index.n() / index.m())
                + (long) index.n() * index.toBytes().length;
    }

    /**
     * The same rounds (the same changes, drawn from the same seed) on a differential store with the space bound
     * {@code bound}; prints one row: the bytes written over all rounds against the bound of the changed blocks, the
     * worst round, and the stored segment bytes against the state, at most over the rounds and after the last.
     */
    private static void boundRow(int stateMiB, double bound) {
        int blockBytes = Chunking.DEFAULT_BLOCK_BYTES;
        byte[] state = new byte[stateMiB << 20];
        SplittableRandom random = new SplittableRandom(1);
        random.nextBytes(state);
        AtomicLong bytes = new AtomicLong();
        CheckpointStore differential = store(bytes, Chunking.fixed(blockBytes), bound);
        differential.commit(JOB, state);
        long total = 0;
        long totalBound = 0;
        double worst = 0;
        double mostStored = 0;
        double stored = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            int[] order = changeTenPercent(state, random, blockBytes);
            long before = bytes.get();
            FragmentIndex index = differential.commit(JOB, state);
            long written = bytes.get() - before;
            long roundBound = bound(order.length, blockBytes, index);
            total += written;
            totalBound += roundBound;
            worst = Math.max(worst, (double) written / roundBound);
            stored = (double) differential.checkpoints(JOB).stream().mapToLong(FragmentIndex::checkpointBytes).sum()
                    / state.length;
            mostStored = Math.max(mostStored, stored);
        }
        if (!Arrays.equals(state, differential.recover(JOB).orElseThrow().toByteArray())) {
            throw new IllegalStateException("the differential store did not recover the last state");
        }
        System.out.printf("| %.2f | %,d | %.4f | %.4f | %.4f | %.4f |%n", bound, total, (double) total / totalBound,
                worst, mostStored, stored);
    }

    /**
     * Prints the table.
     *
     * @param args the state's size in MiB (optional, 64 by default), then optionally space bounds to compare
     */
    public static void main(String[] args) {
        int stateMiB = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        if (args.length > 1) {
            System.out.println("| max space amplification | bytes written, all rounds | against the bound | worst "
                    + "round | stored / state, most | stored / state, after the last round |");
            System.out.println("|---|---|---|---|---|---|");
            for (int a = 1; a < args.length; a++) {
                boundRow(stateMiB, Double.parseDouble(args[a]));
            }
            return;
        }
        int blockBytes = Chunking.DEFAULT_BLOCK_BYTES;
        byte[] state = new byte[stateMiB << 20];
        SplittableRandom random = new SplittableRandom(1);
        random.nextBytes(state);
        int blocks = state.length / blockBytes;
        AtomicLong fullBytes = new AtomicLong();
        AtomicLong diffBytes = new AtomicLong();
        CheckpointStore full = store(fullBytes, null);
        CheckpointStore differential = store(diffBytes, Chunking.fixed(blockBytes));
        AtomicLong streamBytes = new AtomicLong();
        AtomicLong streamRead = new AtomicLong();
        CheckpointStore streamed = store(streamBytes, streamRead, Chunking.fixed(blockBytes),
                CheckpointStore.DEFAULT_MAX_SPACE_AMPLIFICATION);
        full.commit(JOB, state);
        differential.commit(JOB, state);
        commitStream(streamed, state);
        System.out.println("| round | changed blocks | full commit, bytes written | differential commit, bytes "
                + "written | differential / full | bound: changed × n/m + index copies | differential / bound "
                + "| from a stream, bytes written | stream / array | from a stream, bytes read back |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        double worst = 0;
        long totalFull = 0;
        long totalDiff = 0;
        long totalBound = 0;
        long totalStream = 0;
        long totalStreamRead = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            int[] order = changeTenPercent(state, random, blockBytes);
            long fullBefore = fullBytes.get();
            full.commit(JOB, state);
            long fullWritten = fullBytes.get() - fullBefore;
            long before = diffBytes.get();
            FragmentIndex index = differential.commit(JOB, state);
            long written = diffBytes.get() - before;
            long bound = bound(order.length, blockBytes, index);
            worst = Math.max(worst, (double) written / bound);
            totalFull += fullWritten;
            totalDiff += written;
            totalBound += bound;
            long streamBefore = streamBytes.get();
            long readBefore = streamRead.get();
            commitStream(streamed, state);
            long streamWritten = streamBytes.get() - streamBefore;
            long readBack = streamRead.get() - readBefore;
            totalStream += streamWritten;
            totalStreamRead += readBack;
            System.out.printf("| %d | %d of %d | %,d | %,d | %.4f | %,d | %.4f | %,d | %.4f | %,d |%n", round,
                    order.length, blocks, fullWritten, written, (double) written / fullWritten, bound,
                    (double) written / bound, streamWritten, (double) streamWritten / written, readBack);
        }
        long before = diffBytes.get();
        differential.commit(JOB, state);
        long unchanged = diffBytes.get() - before;
        long streamBefore = streamBytes.get();
        commitStream(streamed, state);
        long unchangedStream = streamBytes.get() - streamBefore;
        System.out.printf("| all %d | | %,d | %,d | %.4f | %,d | %.4f | %,d | %.4f | %,d |%n", ROUNDS, totalFull,
                totalDiff, (double) totalDiff / totalFull, totalBound, (double) totalDiff / totalBound, totalStream,
                (double) totalStream / totalDiff, totalStreamRead);
        System.out.printf("%nworst round, differential / bound: %.4f%n", worst);
        long stored = differential.checkpoints(JOB).stream().mapToLong(FragmentIndex::checkpointBytes).sum();
        System.out.printf("stored segment bytes after the last round: %,d, %.4f × the state%n", stored,
                (double) stored / state.length);
        System.out.printf("unchanged state: %,d bytes written, %.4f %% of the %,d-byte state%n", unchanged,
                100.0 * unchanged / state.length, state.length);
        System.out.printf("unchanged state from a stream: %,d bytes written, %.4f %% of the state%n", unchangedStream,
                100.0 * unchangedStream / state.length);
        if (!Arrays.equals(state, differential.recover(JOB).orElseThrow().toByteArray())
                || !Arrays.equals(state, streamed.recover(JOB).orElseThrow().toByteArray())) {
            throw new IllegalStateException("a differential store did not recover the last state");
        }
    }

    /** Commits {@code state} from a stream, as a serializer that never holds it whole would. */
    private static void commitStream(CheckpointStore store, byte[] state) {
        try {
            store.commit(JOB, new ByteArrayInputStream(state));
        } catch (IOException e) {
            throw new UncheckedIOException("a byte array stream cannot fail", e);
        }
    }
}
