package snippets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.placement.Objective;
import io.github.volpex.checkpoint.placement.RepositorySelector;
import io.github.volpex.checkpoint.placement.StorageHost;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.PlacementPolicy;
import io.github.volpex.checkpoint.store.ProcessCheckpoint;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.checkpoint.store.RepairReport;
import io.github.volpex.checkpoint.store.RepositoriesUnreachableException;
import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.estimators.SurvivalFunction;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Function;
import java.util.function.Supplier;

/** Keeping checkpoints, run on nine repositories in memory: the job's checkpoints are gone, the process's restarts. */
final class StoreSnippet {
    static void run() throws IOException {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            repositories.add(FragmentRepository.inMemory("host-" + i));
        }
        Function<String, StorageHost> hostOf = id -> StorageHost.of(id, 1e6, SurvivalFunction.weibull(0.7, 36_000));
        Supplier<Objective> objective = () -> Objective.optimistic(4 * 3600, 600, 3600);
        byte[] state = {1, 2, 3, 4, 5};
        try (Dataspace dataspace = Dataspace.inProcess(4)) {
            Replica replica = dataspace.open(3);
            replica.put("out", state);
            Replica restarted = keep(repositories, ForkJoinPool.commonPool(), hostOf, objective,
                    new ByteArrayInputStream(new byte[100_000]), replica, state, dataspace);
            assertEquals(1, restarted.requestNumber(), "restarted after the put the checkpoint counted");
        }
        int holders = 0;
        for (FragmentRepository repository : repositories) {
            assertTrue(repository.list("job-42.").isEmpty(), "deleteJob left nothing of job-42 on " + repository.id());
            holders += repository.list("process-3.").isEmpty() ? 0 : 1;
        }
        assertEquals(9, holders, "process-3's checkpoint stays, a fragment on each repository");
    }

    static Replica keep(List<FragmentRepository> repositories, Executor pool, Function<String, StorageHost> hostOf,
                        Supplier<Objective> objective, InputStream checkpointStream, Replica replica, byte[] state,
                        Dataspace dataspace) throws IOException {
        //@snippet
        assertEquals(9, index.n());
        assertTrue(report != null);
        assertArrayEquals(state, saved.state());
        return restarted;
    }
}
