package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.Closeable;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads a checkpoint's fragments in lockstep, segment by segment, from {@code m} of them at a time: when one fails (its
 * repository goes away, a piece fails its CRC) the next candidate is opened and wound forward to the current segment.
 * Memory stays at {@code m} pieces.
 */
final class SegmentSource implements Closeable {

    private final FragmentIndex index;
    private final Framing framing;
    private final Dispersal dispersal;
    private final Map<String, FragmentRepository> repositories;
    private final Deque<Integer> pending;
    private final List<FragmentFailure> failures;
    private final TreeMap<Integer, PieceReader> active = new TreeMap<>();
    private final TreeMap<Integer, PieceReader> parked = new TreeMap<>();

    /**
     * @param order    the fragments to read, in order of preference
     * @param failures receives one entry per fragment that could not be read
     */
    SegmentSource(FragmentIndex index, Framing framing, Dispersal dispersal,
                  Map<String, FragmentRepository> repositories, List<Integer> order, List<FragmentFailure> failures) {
        this.index = index;
        this.framing = framing;
        this.dispersal = dispersal;
        this.repositories = repositories;
        this.pending = new ArrayDeque<>(order);
        this.failures = failures;
    }

    /**
     * Returns the pieces of segment {@code s} (called for s = 0, 1, … in order): an array of {@code n} entries with
     * exactly {@code m} present.
     *
     * @throws CheckpointUnavailableException if fewer than {@code m} fragments can be read
     */
    byte[][] next(long s) {
        byte[][] pieces = new byte[index.n()][];
        int present = 0;
        // Every reader in `active` stands at segment s; a reader that delivered it is parked until the segment is done.
        while (present < index.m()) {
            while (active.size() < index.m() - present && !pending.isEmpty()) {
                open(pending.poll(), s);
            }
            if (active.isEmpty()) {
                throw new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), present,
                        failures);
            }
            Map.Entry<Integer, PieceReader> entry = active.pollFirstEntry();
            PieceReader reader = entry.getValue();
            try {
                pieces[entry.getKey()] = reader.next();
                present++;
                parked.put(entry.getKey(), reader);
            } catch (Exception e) {
                Parallel.rethrowErrors(e);
                fail(reader, e);
            }
        }
        active.putAll(parked);
        parked.clear();
        return pieces;
    }

    /** Finishes every active reader; a reader whose digest fails is reported. */
    boolean finish() {
        boolean allVerified = true;
        for (PieceReader reader : active.values()) {
            try {
                reader.finish();
            } catch (Exception e) {
                Parallel.rethrowErrors(e);
                failures.add(FragmentFailure.of(reader.fragmentIndex, reader.repositoryId, e));
                allVerified = false;
            }
        }
        return allVerified;
    }

    /** Opens fragment {@code i} and winds it forward to segment {@code s}; records a failure instead if it cannot. */
    private void open(int i, long s) {
        FragmentLocation location = index.fragments().get(i);
        FragmentRepository repository = repositories.get(location.repositoryId());
        if (repository == null) {
            failures.add(new FragmentFailure(i, location.repositoryId(), FragmentFailure.Reason.UNAVAILABLE,
                    "the store has no repository with this id"));
            return;
        }
        PieceReader reader = null;
        try {
            Optional<InputStream> in = repository.open(index.fragmentKey(i));
            if (in.isEmpty()) {
                failures.add(new FragmentFailure(i, location.repositoryId(), FragmentFailure.Reason.MISSING,
                        index.fragmentKey(i)));
                return;
            }
            reader = new PieceReader(location, framing, dispersal, in.get());
            while (reader.nextSegment() < s) {
                reader.next();
            }
            active.put(i, reader);
        } catch (Exception e) {
            Parallel.rethrowErrors(e);
            if (reader != null) {
                fail(reader, e);
            } else {
                failures.add(FragmentFailure.of(i, location.repositoryId(), e));
            }
        }
    }

    private void fail(PieceReader reader, Exception e) {
        failures.add(FragmentFailure.of(reader.fragmentIndex, reader.repositoryId, e));
        Parallel.closeQuietly(reader);
    }

    @Override
    public void close() {
        for (PieceReader reader : active.values()) {
            Parallel.closeQuietly(reader);
        }
        for (PieceReader reader : parked.values()) {
            Parallel.closeQuietly(reader);
        }
        active.clear();
        parked.clear();
    }
}
