package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.Closeable;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

/**
 * Writes fragments piece by piece, each piece followed by its CRC-32C, one repository per fragment, the writes of one
 * segment in parallel on the store's executor. Every fragment's digest and length are computed even when its write
 * has failed, so that a replacement can be checked against them. A fragment whose write fails is abandoned (its
 * output discarded) and reported; the others go on.
 */
final class FragmentSink implements Closeable {

    private final Executor executor;
    private final FragmentOutput[] outputs;
    private final String[] repositoryIds;
    private final boolean[] failed;
    private final boolean[] committed;
    private final MessageDigest[] digests;
    private final long[] lengths;
    private final List<FragmentFailure> failures;

    FragmentSink(Executor executor, int n, List<FragmentFailure> failures) {
        this.executor = executor;
        this.outputs = new FragmentOutput[n];
        this.repositoryIds = new String[n];
        this.failed = new boolean[n];
        this.committed = new boolean[n];
        this.digests = new MessageDigest[n];
        this.lengths = new long[n];
        this.failures = failures;
        for (int i = 0; i < n; i++) {
            digests[i] = Sha256.newDigest();
        }
    }

    /**
     * Opens fragment {@code which[j]} on {@code repositories[j]} under {@code keys[j]}, in parallel, promising each
     * repository the fragment's length {@code lengths[which[j]]} when it is known ({@code lengths} not null): a
     * repository that must announce a value's length before sending it can then send from the first piece on.
     */
    void open(int[] which, FragmentRepository[] repositories, String[] keys, long[] lengths) {
        List<Callable<FragmentOutput>> tasks = new ArrayList<>();
        for (int j = 0; j < which.length; j++) {
            FragmentRepository repository = repositories[j];
            String key = keys[j];
            repositoryIds[which[j]] = repository.id();
            if (lengths == null) {
                tasks.add(() -> repository.create(key));
            } else {
                long length = lengths[which[j]];
                tasks.add(() -> repository.create(key, length));
            }
        }
        List<Parallel.Outcome<FragmentOutput>> outcomes = Parallel.all(executor, tasks);
        for (int j = 0; j < which.length; j++) {
            Parallel.Outcome<FragmentOutput> outcome = outcomes.get(j);
            if (outcome.ok()) {
                outputs[which[j]] = outcome.value();
            } else {
                fail(which[j], outcome.failure());
            }
        }
    }

    /**
     * For each {@code i} of {@code which}, appends {@code pieces[i]} ({@code pieceLength} bytes) and its CRC. Each
     * fragment's CRC and digest are computed by its own task, beside its write, so that hashing runs in parallel too.
     */
    void write(byte[][] pieces, int pieceLength, int[] which) {
        List<Callable<Void>> tasks = new ArrayList<>();
        List<Integer> written = new ArrayList<>();
        for (int i : which) {
            byte[] piece = pieces[i];
            MessageDigest digest = digests[i];
            lengths[i] += pieceLength + Framing.CRC_BYTES;
            FragmentOutput out = outputs[i] != null && !failed[i] ? outputs[i] : null;
            written.add(out != null ? i : -1);
            tasks.add(() -> {
                byte[] framed = new byte[Framing.CRC_BYTES];
                Framing.putCrc(Framing.crc(piece, pieceLength), framed);
                digest.update(piece, 0, pieceLength);
                digest.update(framed);
                if (out != null) {
                    out.write(piece, 0, pieceLength);
                    out.write(framed);
                }
                return null;
            });
        }
        List<Parallel.Outcome<Void>> outcomes = Parallel.all(executor, tasks);
        for (int j = 0; j < outcomes.size(); j++) {
            if (!outcomes.get(j).ok() && written.get(j) >= 0) {
                fail(written.get(j), outcomes.get(j).failure());
            }
        }
    }

    /** Publishes every fragment of {@code which} that is still being written. */
    void commit(int[] which) {
        List<Callable<Void>> tasks = new ArrayList<>();
        List<Integer> publishing = new ArrayList<>();
        for (int i : which) {
            FragmentOutput out = outputs[i];
            if (out != null && !failed[i]) {
                publishing.add(i);
                tasks.add(() -> {
                    out.commit();
                    return null;
                });
            }
        }
        List<Parallel.Outcome<Void>> outcomes = Parallel.all(executor, tasks);
        for (int j = 0; j < outcomes.size(); j++) {
            int i = publishing.get(j);
            if (outcomes.get(j).ok()) {
                committed[i] = true;
            } else {
                fail(i, outcomes.get(j).failure());
            }
        }
    }

    boolean committed(int i) {
        return committed[i];
    }

    Sha256 digest(int i) {
        return Sha256.wrap(digests[i].digest());
    }

    long length(int i) {
        return lengths[i];
    }

    private void fail(int i, Throwable e) {
        failed[i] = true;
        failures.add(FragmentFailure.of(i, repositoryIds[i], e));
        FragmentOutput out = outputs[i];
        outputs[i] = null;
        if (out != null) {
            Parallel.closeQuietly(out);
        }
    }

    /** Discards every fragment not committed. */
    @Override
    public void close() {
        for (int i = 0; i < outputs.length; i++) {
            if (outputs[i] != null && !committed[i]) {
                Parallel.closeQuietly(outputs[i]);
            }
            outputs[i] = null;
        }
    }
}
