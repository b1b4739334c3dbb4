package io.github.volpex.benchmarks.s3;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Where a commit's time goes: the store commits a checkpoint on the nine endpoints of {@link S3CpuTimeReport} (each
 * behind a {@link ThrottledRelay} when a rate is given), through repositories that note when each of their calls
 * starts and ends, and the report prints, per kind of call (listings, fragment creation, first write, fragment
 * commit, puts and deletes by kind of key), how many there were, when the first started and the last ended, and
 * their mean duration, in milliseconds from the start of the commit.
 *
 * <pre>{@code
 * java -Xmx4g -cp benchmarks/target/benchmarks.jar io.github.volpex.benchmarks.s3.S3CommitTimeline \
 *     [checkpointMiB [commits [megabytesPerSecond]]]
 * }</pre>
 */
public final class S3CommitTimeline {

    private S3CommitTimeline() {
    }

    /** One kind of call: how many, the first start, the last end and the summed duration, in nanoseconds. */
    private static final class Kind {
        int count;
        long firstStart = Long.MAX_VALUE;
        long lastEnd = Long.MIN_VALUE;
        long totalNanos;
    }

    /** The calls of the commit being timed, by kind. */
    private static final Map<String, Kind> KINDS = new TreeMap<>();
    private static volatile long commitStart;

    private static void note(String kind, long start) {
        long end = System.nanoTime();
        synchronized (KINDS) {
            Kind k = KINDS.computeIfAbsent(kind, x -> new Kind());
            k.count++;
            k.firstStart = Math.min(k.firstStart, start - commitStart);
            k.lastEnd = Math.max(k.lastEnd, end - commitStart);
            k.totalNanos += end - start;
        }
    }

    /** The kind of a store key: its last part ({@code idx}, {@code ok}, or {@code f} for a fragment). */
    private static String keyKind(String key) {
        String last = key.substring(key.lastIndexOf('.') + 1);
        return last.startsWith("f") ? "fragment" : last;
    }

    /**
     * Runs the commits and prints the timeline of each after the first.
     *
     * @param args the checkpoint's size in MiB (64), the commits (4) and the rate of each connection in MB/s (20; 0
     *             for no relay)
     * @throws Exception if a server does not start or a commit fails
     */
    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int commits = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        byte[] checkpoint = new byte[mib << 20];
        new SplittableRandom(1).nextBytes(checkpoint);
        ExecutorService io = Executors.newFixedThreadPool(9);
        try (S3Endpoints endpoints = S3Endpoints.start(9, rate == 0 ? -1 : rate * 1_000_000L, io)) {
            List<FragmentRepository> timed = new ArrayList<>();
            endpoints.repositories().forEach(r -> timed.add(new Timed(r)));
            CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), timed).executor(io).build();
            for (int commit = 0; commit < commits; commit++) {
                synchronized (KINDS) {
                    KINDS.clear();
                }
                commitStart = System.nanoTime();
                store.commit("job", checkpoint);
                double total = (System.nanoTime() - commitStart) / 1e6;
                if (commit == 0) {
                    continue;
                }
                System.out.printf("%ncommit %d of %d MiB, %s: %.0f ms%n", commit, mib,
                        rate == 0 ? "no limit" : rate + " MB/s per connection", total);
                System.out.println("| calls | count | first start, ms | last end, ms | mean, ms |");
                System.out.println("|---|---|---|---|---|");
                synchronized (KINDS) {
                    KINDS.entrySet().stream().sorted((a, b) -> Long.compare(a.getValue().firstStart,
                            b.getValue().firstStart)).forEach(e -> System.out.printf(
                            "| %s | %d | %.0f | %.0f | %.1f |%n", e.getKey(), e.getValue().count,
                            e.getValue().firstStart / 1e6, e.getValue().lastEnd / 1e6,
                            e.getValue().totalNanos / 1e6 / e.getValue().count));
                }
            }
            store.close();
        } finally {
            io.shutdownNow();
        }
    }

    /** A repository that notes when its calls start and end. */
    private static final class Timed extends ForwardingRepository {

        Timed(FragmentRepository repository) {
            super(repository);
        }

        @Override
        public void put(String key, byte[] content) throws IOException {
            long start = System.nanoTime();
            super.put(key, content);
            note("put " + keyKind(key), start);
        }

        @Override
        public boolean delete(String key) throws IOException {
            long start = System.nanoTime();
            boolean deleted = super.delete(key);
            note("delete " + keyKind(key), start);
            return deleted;
        }

        @Override
        public List<String> list(String prefix) throws IOException {
            long start = System.nanoTime();
            List<String> keys = super.list(prefix);
            note("list", start);
            return keys;
        }

        @Override
        public FragmentOutput create(String key) throws IOException {
            return timed(super.create(key), System.nanoTime());
        }

        @Override
        public FragmentOutput create(String key, long lengthBytes) throws IOException {
            return timed(super.create(key, lengthBytes), System.nanoTime());
        }

        private static FragmentOutput timed(FragmentOutput out, long created) {
            note("create fragment", created);
            return new FragmentOutput() {
                private boolean written;

                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    long start = System.nanoTime();
                    out.write(b, off, len);
                    if (!written) {
                        written = true;
                        note("first write of a fragment", start);
                    }
                }

                @Override
                protected void publish() throws IOException {
                    long start = System.nanoTime();
                    out.commit();
                    note("commit fragment", start);
                }

                @Override
                protected void discard() throws IOException {
                    out.close();
                }
            };
        }
    }
}
