package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Reading a checkpoint described by an index: whole fragments in parallel until {@code m} verify (recovery,
 * collection's check), every fragment in full (repair's probe), or lockstep streaming in bounded memory.
 */
final class Reads {

    private final StoreContext context;

    Reads(StoreContext context) {
        this.context = context;
    }

    /** Rebuilds the checkpoint {@code index} describes, verified against its digest. */
    RecoveredCheckpoint rebuild(FragmentIndex index) {
        Dispersal d = context.dispersalFor(index);
        Framing framing = new Framing(d, index.segmentBytes(), index.checkpointBytes());
        List<FragmentFailure> failures = new ArrayList<>();
        if (index.checkpointBytes() > CheckpointStore.MAX_ARRAY_BYTES) {
            throw new IllegalStateException("checkpoint " + index.jobId() + " #" + index.sequence() + " of "
                    + index.checkpointBytes() + " bytes does not fit in an array: use recoverTo");
        }
        Map<Integer, byte[]> verified = fetchVerified(index, framing, failures, true);
        if (verified.size() < index.m()) {
            throw new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), verified.size(),
                    failures);
        }
        byte[] data = decode(index, d, framing, verified);
        if (!index.checkpointSha256().matches(data)) {
            failures.add(new FragmentFailure(-1, "decoder", FragmentFailure.Reason.CORRUPT,
                    "the rebuilt checkpoint does not match its digest " + index.checkpointSha256()));
            throw new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), 0, failures);
        }
        return new RecoveredCheckpoint(index, data);
    }

    /** Checks that {@code m} fragments of {@code index} can be fetched and verified, without decoding them. */
    boolean verifyRecoverable(FragmentIndex index, List<FragmentFailure> failures) {
        Framing framing = new Framing(context.dispersalFor(index), index.segmentBytes(), index.checkpointBytes());
        return fetchVerified(index, framing, failures, true).size() >= index.m();
    }

    /** Streams the checkpoint {@code index} describes into {@code out}; see {@link CheckpointStore#recoverTo}. */
    long streamTo(FragmentIndex index, OutputStream out) throws IOException {
        Dispersal d = context.dispersalFor(index);
        Framing framing = new Framing(d, index.segmentBytes(), index.checkpointBytes());
        List<FragmentFailure> failures = new ArrayList<>();
        List<Integer> order = index.fragments().stream().map(FragmentLocation::fragmentIndex).toList();
        MessageDigest digest = Sha256.newDigest();
        int segmentBytes = (int) Math.min(index.segmentBytes(), Math.max(1, index.checkpointBytes()));
        // Two segments: one is hashed on the executor while the next is read, checked and decoded into the other.
        byte[][] segments = {new byte[segmentBytes], new byte[segmentBytes]};
        Parallel.Task<Void> hashing = null;
        long written = 0;
        try (SegmentSource source = new SegmentSource(index, framing, d, context.byId, order, failures)) {
            for (long s = 0; s < framing.segments(); s++) {
                byte[][] pieces = source.next(s);
                int segmentLength = framing.segmentLength(s);
                byte[] segment = segments[(int) (s & 1)];
                d.decode(pieces, segmentLength, segment);
                awaitHash(hashing);
                hashing = Parallel.start(context.executor, () -> {
                    digest.update(segment, 0, segmentLength);
                    return null;
                });
                out.write(segment, 0, segmentLength);
                written += segmentLength;
            }
            source.finish();
        } finally {
            awaitHash(hashing);
        }
        if (!index.checkpointSha256().equals(Sha256.wrap(digest.digest()))) {
            failures.add(new FragmentFailure(-1, "decoder", FragmentFailure.Reason.CORRUPT,
                    "the streamed checkpoint does not match its digest " + index.checkpointSha256()));
            throw new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), 0, failures);
        }
        return written;
    }

    /** Waits for (or runs) a hashing task, if any: it must end before its segment is reused or the digest read. */
    private static void awaitHash(Parallel.Task<Void> hashing) {
        if (hashing != null) {
            Parallel.rethrowErrors(Parallel.await(hashing).failure());
        }
    }

    /**
     * Fetches {@code m} whole fragments of {@code index} whose lengths are those the index records, without checking
     * their digests: the caller checks each piece it uses against its CRC-32C and what it rebuilds against a
     * SHA-256 of its own (a differential recovery's blocks). Fewer than {@code m} when no more can be fetched.
     */
    Map<Integer, byte[]> fetchUnhashed(FragmentIndex index, List<FragmentFailure> failures) {
        Framing framing = new Framing(context.dispersalFor(index), index.segmentBytes(), index.checkpointBytes());
        return fetchVerified(index, framing, failures, false);
    }

    /**
     * Fetches whole fragments on the executor, {@code m + extraFetches} at a time, starting another whenever one
     * fails, until {@code m} verify (their lengths, and their digests when {@code digests}) or none is left.
     */
    private Map<Integer, byte[]> fetchVerified(FragmentIndex index, Framing framing, List<FragmentFailure> failures,
                                               boolean digests) {
        LinkedBlockingQueue<Object[]> done = new LinkedBlockingQueue<>();
        List<FragmentLocation> pending = new ArrayList<>(index.fragments());
        List<Parallel.Task<byte[]>> started = new ArrayList<>();
        Map<Integer, byte[]> verified = new HashMap<>();
        int running = 0;
        int parallel = Math.min(index.n(), index.m() + context.extraFetches);
        long expectedLength = framing.fragmentLength();
        while (verified.size() < index.m()) {
            while (running < parallel - verified.size() && !pending.isEmpty()) {
                FragmentLocation location = pending.remove(0);
                running++;
                Parallel.Task<byte[]> task = Parallel.start(context.executor,
                        () -> fetch(index, location, expectedLength, digests));
                task.future.whenComplete((bytes, failure) -> done.add(new Object[] {location, bytes, failure}));
                started.add(task);
            }
            if (running == 0) {
                break;
            }
            Object[] result = done.poll();
            if (result == null) {
                // Run a fetch the executor has not started here rather than wait for it.
                started.removeIf(task -> task.future.isDone());
                for (Parallel.Task<byte[]> task : started) {
                    if (task.runIfUnclaimed()) {
                        break;
                    }
                }
                result = take(done);
            }
            running--;
            FragmentLocation location = (FragmentLocation) result[0];
            Throwable failure = (Throwable) result[2];
            if (failure == null) {
                verified.put(location.fragmentIndex(), (byte[]) result[1]);
            } else {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                Parallel.rethrowErrors(cause);
                failures.add(FragmentFailure.of(location.fragmentIndex(), location.repositoryId(), cause));
            }
        }
        return verified;
    }

    private static Object[] take(LinkedBlockingQueue<Object[]> queue) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return queue.take();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Fetches one whole fragment and checks its length and, when {@code digest}, its digest. */
    private byte[] fetch(FragmentIndex index, FragmentLocation location, long expectedLength, boolean digest)
            throws IOException {
        FragmentRepository repository = repository(location);
        Optional<byte[]> bytes = repository.get(index.fragmentKey(location.fragmentIndex()));
        if (bytes.isEmpty()) {
            throw new MissingFragmentException(index.fragmentKey(location.fragmentIndex()));
        }
        byte[] fragment = bytes.get();
        if (fragment.length != expectedLength || location.lengthBytes() != expectedLength
                || digest && !location.sha256().matches(fragment)) {
            throw new DamagedFragmentException("fragment " + location.fragmentIndex() + " of " + fragment.length
                    + " bytes does not match the index (" + expectedLength + " bytes, " + location.sha256() + ")");
        }
        return fragment;
    }

    private FragmentRepository repository(FragmentLocation location) throws RepositoryUnavailableException {
        FragmentRepository repository = context.byId.get(location.repositoryId());
        if (repository == null) {
            throw new RepositoryUnavailableException(location.repositoryId(), "the store has no repository with "
                    + "this id", null);
        }
        return repository;
    }

    /** Decodes the checkpoint from {@code m} verified whole fragments. */
    private static byte[] decode(FragmentIndex index, Dispersal d, Framing framing, Map<Integer, byte[]> fragments) {
        byte[] out = new byte[(int) index.checkpointBytes()];
        byte[] segment = new byte[(int) Math.min(index.segmentBytes(), Math.max(1, index.checkpointBytes()))];
        long offset = 0;
        int position = 0;
        List<Integer> use = fragments.keySet().stream().sorted().limit(index.m()).toList();
        for (long s = 0; s < framing.segments(); s++) {
            int segmentLength = framing.segmentLength(s);
            int pieceLength = d.pieceLength(segmentLength);
            byte[][] pieces = new byte[index.n()][];
            for (int i : use) {
                pieces[i] = Arrays.copyOfRange(fragments.get(i), (int) offset, (int) offset + pieceLength);
            }
            d.decode(pieces, segmentLength, segment);
            System.arraycopy(segment, 0, out, position, segmentLength);
            position += segmentLength;
            offset += pieceLength + Framing.CRC_BYTES;
        }
        return out;
    }

    /** Reads every fragment in full, in parallel, checking CRCs, length and digest; returns those that verify. */
    Set<Integer> probe(FragmentIndex index, List<FragmentFailure> failures) {
        Dispersal d = context.dispersalFor(index);
        Framing framing = new Framing(d, index.segmentBytes(), index.checkpointBytes());
        List<Callable<Void>> tasks = new ArrayList<>();
        for (FragmentLocation location : index.fragments()) {
            tasks.add(() -> {
                FragmentRepository repository = repository(location);
                if (location.lengthBytes() != framing.fragmentLength()) {
                    throw new DamagedFragmentException("the index records " + location.lengthBytes()
                            + " bytes for fragment " + location.fragmentIndex() + ", " + framing.fragmentLength()
                            + " expected");
                }
                Optional<InputStream> in = repository.open(index.fragmentKey(location.fragmentIndex()));
                if (in.isEmpty()) {
                    throw new MissingFragmentException(index.fragmentKey(location.fragmentIndex()));
                }
                try (PieceReader reader = new PieceReader(location, framing, d, in.get())) {
                    reader.verifyAll();
                }
                return null;
            });
        }
        List<Parallel.Outcome<Void>> outcomes = Parallel.all(context.executor, tasks);
        Set<Integer> verified = new LinkedHashSet<>();
        for (int j = 0; j < outcomes.size(); j++) {
            FragmentLocation location = index.fragments().get(j);
            if (outcomes.get(j).ok()) {
                verified.add(location.fragmentIndex());
            } else {
                failures.add(FragmentFailure.of(location.fragmentIndex(), location.repositoryId(),
                        outcomes.get(j).failure()));
            }
        }
        return verified;
    }
}
