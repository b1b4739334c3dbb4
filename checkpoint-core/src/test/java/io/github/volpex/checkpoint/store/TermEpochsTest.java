package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.IOException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Epochs held per term, as a writer election hands them out: one store serves its host across terms, committing under
 * each term's epoch, and is refused when it does not hold the role or lists a newer term's checkpoints.
 */
class TermEpochsTest {

    /** A job's counter shared by every host, as the coordination service keeps it. */
    private static final class Counter {
        final AtomicLong value = new AtomicLong();

        long elect() {
            return value.incrementAndGet();
        }
    }

    /** One host's view of the election: the epoch of its current term, or -1 while it does not hold the role. */
    private static class Term implements EpochSource {
        final Counter counter;
        volatile long held = -1;

        Term(Counter counter) {
            this.counter = counter;
        }

        void elected() {
            held = counter.elect();
        }

        @Override
        public long acquire(String jobId, long highestSeen) throws IOException {
            long epoch = held;
            if (epoch < 0) {
                throw new IOException("this host does not hold the writer role of " + jobId);
            }
            return epoch;
        }

        @Override
        public boolean isCurrent(String jobId, long epoch) {
            return counter.value.get() == epoch;
        }

        @Override
        public boolean epochPerTerm() {
            return true;
        }
    }

    private static CheckpointStore store(List<FragmentRepository> repositories, EpochSource epochs) {
        return CheckpointStore.ephemeral(repositories).random(new SplittableRandom(2)).epochs(epochs).build();
    }

    @Test
    void one_store_commits_under_each_of_its_terms_and_is_refused_between_them() {
        List<FragmentRepository> repositories = Stores.inMemory(3);
        Counter counter = new Counter();
        Term a = new Term(counter);
        Term b = new Term(counter);
        CheckpointStore storeA = store(repositories, a);
        CheckpointStore storeB = store(repositories, b);

        a.elected();
        assertEquals(1, storeA.commit("job", Stores.data(1, 50)).epoch());
        assertEquals(1, storeA.commit("job", Stores.data(2, 50)).epoch());

        // A loses the role (its session expired), B is elected and commits.
        a.held = -1;
        b.elected();
        CommitFailedException notWriter = assertThrows(CommitFailedException.class,
                () -> storeA.commit("job", Stores.data(3, 50)));
        assertTrue(notWriter.getMessage().contains("no epoch of a writer's term: this host does not hold the writer "
                + "role of job"), notWriter.getMessage());
        assertEquals(2, storeB.commit("job", Stores.data(4, 50)).epoch());

        // A is elected again (B died): the same store commits under A's new term.
        b.held = -1;
        a.elected();
        FragmentIndex third = storeA.commit("job", Stores.data(5, 50));
        assertEquals(3, third.epoch());
        assertArrayEquals(Stores.data(5, 50), storeB.recover("job").orElseThrow().toByteArray());
        assertEquals(List.of(third), storeA.checkpoints("job"));
    }

    @Test
    void a_term_older_than_what_the_job_lists_is_stale() {
        List<FragmentRepository> repositories = Stores.inMemory(3);
        Counter counter = new Counter();
        Term old = new Term(counter);
        Term newer = new Term(counter);
        old.elected();
        newer.elected();
        FragmentIndex kept = store(repositories, newer).commit("job", Stores.data(1, 40));
        // The old host still believes it writes (it was paused): what it lists shows the newer term.
        StaleWriterException stale = assertThrows(StaleWriterException.class,
                () -> store(repositories, old).commit("job", Stores.data(2, 40)));
        assertEquals(1, stale.epoch());
        assertEquals(2, stale.newerEpoch());
        assertEquals(List.of(kept), store(repositories, newer).checkpoints("job"));
    }

    @Test
    void a_term_that_ends_during_a_commit_is_refused_at_the_commit_point() {
        List<FragmentRepository> repositories = Stores.inMemory(3);
        Counter counter = new Counter();
        Term host = new Term(counter) {
            @Override
            public long acquire(String jobId, long highestSeen) throws IOException {
                long epoch = super.acquire(jobId, highestSeen);
                counter.elect(); // another host is elected while this one writes its fragments
                return epoch;
            }
        };
        host.elected();
        StaleWriterException stale = assertThrows(StaleWriterException.class,
                () -> store(repositories, host).commit("job", Stores.data(1, 40)));
        assertEquals(1, stale.epoch());
        assertTrue(store(repositories, host).checkpoints("job").isEmpty());
    }
}
