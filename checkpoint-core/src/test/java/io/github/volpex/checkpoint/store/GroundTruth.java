package io.github.volpex.checkpoint.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What recovery must return, computed from the repositories' raw contents: the newest checkpoint that has a readable
 * index copy on an available repository and, per that index, at least {@code m} intact fragments on available
 * repositories.
 */
final class GroundTruth {

    private GroundTruth() {
    }

    /** The outcome recovery must have. */
    sealed interface Expected permits Nothing, Unrecoverable, Checkpoint {
    }

    /** No readable index anywhere: recovery returns empty. */
    record Nothing() implements Expected {
    }

    /** Indexes exist, but no checkpoint has enough intact fragments: recovery throws. */
    record Unrecoverable() implements Expected {
    }

    /** Recovery returns this checkpoint. */
    record Checkpoint(long sequence, Sha256 sha256) implements Expected {
    }

    static Expected of(List<FragmentRepository> raw, FaultPlan availability, String jobId) throws Exception {
        List<FragmentIndex> visible = new ArrayList<>();
        for (FragmentRepository repository : raw) {
            if (availability.isDown(repository.id())) {
                continue;
            }
            for (String key : repository.list(StoreKeys.jobPrefix(jobId))) {
                StoreKeys.Parsed parsed = StoreKeys.parse(key);
                if (parsed == null || !parsed.isIndex()) {
                    continue;
                }
                Optional<byte[]> bytes = repository.get(key);
                try {
                    FragmentIndex index = FragmentIndex.parse(bytes.orElseThrow());
                    if (index.indexKey().equals(key)) {
                        visible.add(index);
                    }
                } catch (CorruptIndexException e) {
                    // Unreadable copy: the store ignores it too.
                }
            }
        }
        if (visible.isEmpty()) {
            return new Nothing();
        }
        // Highest revision per checkpoint, newest checkpoint first.
        visible.sort((a, b) -> {
            int bySequence = Long.compare(b.sequence(), a.sequence());
            if (bySequence != 0) {
                return bySequence;
            }
            int byTime = b.createdAt().compareTo(a.createdAt());
            if (byTime != 0) {
                return byTime;
            }
            int byCommit = Long.compare(b.commitId(), a.commitId());
            return byCommit != 0 ? byCommit : Integer.compare(b.revision(), a.revision());
        });
        FragmentIndex previous = null;
        for (FragmentIndex index : visible) {
            if (previous != null && previous.sameCheckpoint(index)) {
                continue;
            }
            previous = index;
            int intact = 0;
            for (FragmentLocation location : index.fragments()) {
                FragmentRepository repository = raw.stream().filter(r -> r.id().equals(location.repositoryId()))
                        .findFirst().orElseThrow();
                if (availability.isDown(repository.id())) {
                    continue;
                }
                Optional<byte[]> fragment = repository.get(index.fragmentKey(location.fragmentIndex()));
                if (fragment.isPresent() && location.sha256().matches(fragment.get())) {
                    intact++;
                }
            }
            if (intact >= index.m()) {
                return new Checkpoint(index.sequence(), index.checkpointSha256());
            }
        }
        return new Unrecoverable();
    }

    /** What a store's recovery actually did, in the same terms. */
    static Expected observed(CheckpointStore store, String jobId) {
        try {
            Optional<RecoveredCheckpoint> recovered = store.recover(jobId);
            if (recovered.isEmpty()) {
                return new Nothing();
            }
            RecoveredCheckpoint checkpoint = recovered.get();
            // The bytes themselves, not just the index's claim, must hash to the digest.
            Sha256 actual = Sha256.of(checkpoint.toByteArray());
            if (!actual.equals(checkpoint.index().checkpointSha256())) {
                throw new AssertionError("recovered bytes do not match their index: " + checkpoint);
            }
            return new Checkpoint(checkpoint.index().sequence(), actual);
        } catch (CheckpointUnavailableException e) {
            return new Unrecoverable();
        }
    }
}
