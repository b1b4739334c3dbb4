package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Recovery that cannot reach repositories says why, repository by repository: the exception carries what each one's
 * calls threw, and its message names the first, so that a wrong endpoint, refused credentials and a missing bucket
 * read differently.
 */
class RecoveryCausesTest {

    private static CheckpointStore store(List<Switchable> repositories) {
        return CheckpointStore.ephemeral(repositories).random(new SplittableRandom(1))
                .placement(PlacementPolicy.inOrder()).build();
    }

    @Test
    void every_repository_failing_names_each_cause_and_the_first_in_the_message() throws Exception {
        List<Switchable> repositories = Switchable.inMemory(3);
        CheckpointStore store = store(repositories);
        IOException refused = new RepositoryUnavailableException("r0", "connection refused", null);
        IOException denied = new IOException("access denied (HTTP 403) for bucket b");
        IOException missing = new RepositoryUnavailableException("r2", "bucket b does not exist", null);
        repositories.get(0).down(refused);
        repositories.get(1).down(denied);
        repositories.get(2).down(missing);
        RepositoriesUnreachableException e = assertThrows(RepositoriesUnreachableException.class,
                () -> store.recover("job"));
        assertEquals("no committed checkpoint of job was found, but repositories [r0, r1, r2] that may hold one are "
                + "unreachable (r0: repository r0 is unavailable: connection refused)", e.getMessage());
        assertEquals(Map.of("r0", refused, "r1", denied, "r2", missing), e.causes());
        assertEquals(List.of("r0", "r1", "r2"), List.copyOf(e.causes().keySet()));
        assertEquals(List.of(refused, denied, missing), List.of(e.getSuppressed()));

        RepositoriesUnreachableException back = Serialized.roundTrip(e);
        assertEquals(e.getMessage(), back.getMessage());
        assertEquals(List.of("r0", "r1", "r2"), List.copyOf(back.causes().keySet()));
        assertEquals("access denied (HTTP 403) for bucket b", back.causes().get("r1").getMessage());
    }

    @Test
    void a_newest_checkpoint_whose_holders_fail_names_their_causes() {
        List<Switchable> repositories = Switchable.inMemory(3);
        CheckpointStore store = store(repositories);
        FragmentIndex index = store.commit("job", Stores.data(1, 100)); // replicas on r0 and r1, a marker on r2 too
        IOException timeout = new RepositoryUnavailableException("r1", "timed out after 5 s", null);
        IOException refused = new RepositoryUnavailableException("r0", "connection refused", null);
        repositories.get(1).down(timeout);
        repositories.get(0).down(refused);
        RepositoriesUnreachableException e = assertThrows(RepositoriesUnreachableException.class,
                () -> store.recover("job"));
        assertEquals(index.sequence(), e.sequence());
        assertEquals("the newest committed checkpoint of job, #" + index.sequence() + ", needs 1 verified fragments "
                + "and got 0; repositories [r0, r1] that may hold its fragments are unreachable (r0: repository r0 is "
                + "unavailable: connection refused)", e.getMessage());
        assertSame(refused, e.causes().get("r0"));
        assertSame(timeout, e.causes().get("r1"));
    }

    @Test
    void an_exception_built_without_causes_names_the_first_recorded_failure() {
        FragmentFailure failure = new FragmentFailure(2, "r5", FragmentFailure.Reason.UNAVAILABLE, "reset by peer");
        RepositoriesUnreachableException e = new RepositoriesUnreachableException("job", 4, 3, 2, List.of("r5"),
                null, List.of(failure));
        assertEquals("the newest committed checkpoint of job, #4, needs 3 verified fragments and got 2; repositories "
                + "[r5] that may hold its fragments are unreachable (r5: reset by peer)", e.getMessage());
        assertEquals(Map.of(), e.causes());
        assertThrows(NullPointerException.class, () -> new RepositoriesUnreachableException("job", 4, 3, 2,
                List.of("r5"), java.util.Collections.singletonMap("r5", null), null, List.of()));
    }
}
