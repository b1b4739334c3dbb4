package io.github.volpex.testkit.selftest;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.testkit.FragmentRepositoryContract;
import java.io.IOException;

/** The repository contract against {@link FragmentRepository#directory}, with and without fsync. */
class DirectoryRepositoryContractTest extends FragmentRepositoryContract {

    private boolean fsync;

    @Override
    protected FragmentRepository newRepository(String id) throws IOException {
        // Alternate so that both durability settings run the whole contract.
        fsync = !fsync;
        return FragmentRepository.directory(id, TestDirectories.fresh(), fsync);
    }
}
