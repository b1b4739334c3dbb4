package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Deleting a job: every object of every checkpoint and epoch goes, markers first; the epoch source's counter goes
 * first of all (so no earlier writer commits again), and a source that knows of live writers refuses unless forced;
 * what cannot be deleted is named.
 */
class JobDeletionTest {

    /** Fenced per-job counters, with writers the test declares alive. */
    private static final class Counters implements EpochSource {
        final Map<String, Long> counters = new ConcurrentHashMap<>();
        final List<String> alive = Collections.synchronizedList(new ArrayList<>());
        final List<String> deleted = Collections.synchronizedList(new ArrayList<>());
        volatile IOException unreachable;

        @Override
        public long acquire(String jobId, long highestSeen) {
            return counters.merge(jobId, highestSeen + 1, (old, floor) -> Math.max(old + 1, floor));
        }

        @Override
        public boolean isCurrent(String jobId, long epoch) {
            return counters.getOrDefault(jobId, -1L) == epoch;
        }

        @Override
        public void deleteJob(String jobId, boolean force) throws IOException {
            if (unreachable != null) {
                throw unreachable;
            }
            if (!alive.isEmpty() && !force) {
                throw new JobRunningException(jobId, List.copyOf(alive));
            }
            counters.remove(jobId);
            deleted.add(jobId + (force ? " (forced)" : ""));
        }
    }

    /** Records the order in which keys are deleted, over every repository. */
    private static final class Recording extends Switchable {
        private final List<String> order;

        Recording(FragmentRepository inner, List<String> order) {
            super(inner);
            this.order = order;
        }

        @Override
        public boolean delete(String key) throws IOException {
            order.add(key);
            return super.delete(key);
        }
    }

    private static CheckpointStore store(List<? extends FragmentRepository> repositories, EpochSource epochs) {
        return CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories).random(new SplittableRandom(5))
                .segmentBytes(100).epochs(epochs).build();
    }

    @Test
    void every_checkpoint_of_every_epoch_goes_markers_first_and_other_jobs_stay() throws Exception {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<Recording> repositories = new ArrayList<>();
        for (FragmentRepository inner : Stores.inMemory(7)) {
            repositories.add(new Recording(inner, order));
        }
        Counters epochs = new Counters();
        CheckpointStore first = store(repositories, epochs);
        first.commit("job", Stores.data(1, 700));
        first.commit("job", Stores.data(2, 700));
        CheckpointStore second = store(repositories, epochs); // a later writer: a greater epoch
        second.commit("job", Stores.data(3, 700));
        second.commit("keep", Stores.data(4, 300));
        // What a crashed writer of an even newer epoch left: a fragment and an index copy without a marker, and a
        // stray marker of an old checkpoint.
        repositories.get(0).put(StoreKeys.fragmentKey("job", new CheckpointId(9, 0, 77), 0), new byte[] {1});
        repositories.get(1).put(StoreKeys.indexKey("job", new CheckpointId(9, 0, 77)), new byte[] {2});
        repositories.get(2).put(StoreKeys.markerKey("job", new CheckpointId(0, 0, 5)), new byte[0]);
        List<String> before = Stores.everything(repositories);
        List<String> ofJob = before.stream().filter(key -> key.contains("/job.")).toList();
        order.clear();

        assertEquals(ofJob.size(), first.deleteJob("job"));
        assertEquals(before.stream().filter(key -> key.contains("/keep.")).toList(), Stores.everything(repositories));
        assertEquals(List.of("job"), epochs.deleted);
        assertEquals(Optional.empty(), second.recover("job"));
        assertTrue(second.recover("keep").isPresent());
        int lastMarker = -1;
        int firstOther = order.size();
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i).endsWith(".ok")) {
                lastMarker = i;
            } else {
                firstOther = Math.min(firstOther, i);
            }
        }
        assertTrue(lastMarker < firstOther, "every marker is deleted before any index or fragment: " + order);

        // The job can start again from nothing, and deleting it twice is harmless.
        assertEquals(0, first.deleteJob("job") - first.deleteJob("job"));
        assertEquals(0, first.commit("job", Stores.data(5, 10)).sequence());
    }

    @Test
    void a_writer_of_the_deleted_job_cannot_commit_again() {
        List<FragmentRepository> repositories = Stores.inMemory(5);
        Counters epochs = new Counters();
        CheckpointStore writer = store(repositories, epochs);
        writer.commit("job", Stores.data(1, 100));
        store(repositories, epochs).deleteJob("job");
        assertThrows(StaleWriterException.class, () -> writer.commit("job", Stores.data(2, 100)));
    }

    @Test
    void a_job_with_live_writers_is_refused_unless_forced() throws Exception {
        List<FragmentRepository> repositories = Stores.inMemory(5);
        Counters epochs = new Counters();
        CheckpointStore store = store(repositories, epochs);
        store.commit("job", Stores.data(1, 100));
        epochs.alive.add("host-a (writer, epoch 1)");
        List<String> before = Stores.everything(repositories);
        JobRunningException running = assertThrows(JobRunningException.class, () -> store.deleteJob("job"));
        assertEquals("job job still runs: a writer or candidate is alive, host-a (writer, epoch 1); stop it first, "
                + "or force the deletion", running.getMessage());
        assertEquals(List.of("host-a (writer, epoch 1)"), running.writers());
        assertEquals(running.writers(), Serialized.roundTrip(running).writers());
        assertEquals(before, Stores.everything(repositories));
        assertEquals(before.size(), store.deleteJob("job", true));
        assertEquals(List.of("job (forced)"), epochs.deleted);
        assertEquals(List.of(), Stores.everything(repositories));
    }

    @Test
    void what_cannot_be_deleted_is_named_and_a_second_run_finishes() throws Exception {
        List<Switchable> repositories = Switchable.inMemory(5);
        Counters epochs = new Counters();
        CheckpointStore store = store(repositories, epochs);
        store.commit("job", Stores.data(1, 100));
        List<String> onR1 = repositories.get(1).list("job.");
        List<String> onR3 = repositories.get(3).list("job.");
        assertFalse(onR1.isEmpty());
        repositories.get(1).refuseDeletes(true);
        repositories.get(3).down(new RepositoryUnavailableException("r3", "connection refused", null));
        JobDeletionException partial = assertThrows(JobDeletionException.class, () -> store.deleteJob("job"));
        assertEquals(List.of("r3"), partial.unreachable());
        // A marker that may remain keeps its checkpoint whole: what remains is what the repositories still list.
        Map<String, List<String>> listed = new java.util.LinkedHashMap<>();
        for (Switchable repository : repositories) {
            if (!repository.id().equals("r3") && !repository.list("job.").isEmpty()) {
                listed.put(repository.id(), repository.list("job."));
            }
        }
        assertEquals(listed, partial.remaining());
        assertEquals(onR1, partial.remaining().get("r1"), "r1 keeps everything: its deletes were dropped");
        int remaining = listed.values().stream().mapToInt(List::size).sum();
        assertTrue(partial.getMessage().startsWith("job job was not deleted completely (" + partial.deleted()
                + " objects deleted); repositories [r3] could not be listed; " + remaining + " objects remain: "),
                partial.getMessage());
        assertTrue(partial.getMessage().contains(" on r1"), partial.getMessage());
        assertTrue(partial.getMessage().endsWith("first failure: index copy on r3: UNAVAILABLE (repository r3 is "
                + "unavailable: connection refused)"), partial.getMessage());

        JobDeletionException back = Serialized.roundTrip(partial);
        assertEquals(List.of(partial.remaining(), partial.unreachable(), partial.deleted(), partial.getMessage()),
                List.of(back.remaining(), back.unreachable(), back.deleted(), back.getMessage()));

        repositories.get(1).refuseDeletes(false);
        repositories.get(3).down(null);
        assertEquals(remaining + onR3.size(), store.deleteJob("job"));
        assertEquals(List.of(), Stores.everything(repositories));
    }

    @Test
    void an_unreachable_epoch_source_deletes_nothing() throws Exception {
        List<FragmentRepository> repositories = Stores.inMemory(5);
        Counters epochs = new Counters();
        CheckpointStore store = store(repositories, epochs);
        store.commit("job", Stores.data(1, 100));
        List<String> before = Stores.everything(repositories);
        epochs.unreachable = new IOException("no ZooKeeper server answered within 60 s");
        JobDeletionException failed = assertThrows(JobDeletionException.class, () -> store.deleteJob("job"));
        assertEquals("job job was not deleted completely (0 objects deleted); first failure: index copy on epoch "
                + "source: UNAVAILABLE (the epochs of the job could not be deleted, so no checkpoint was: no ZooKeeper "
                + "server answered within 60 s)", failed.getMessage());
        assertEquals(before, Stores.everything(repositories));
    }
}
