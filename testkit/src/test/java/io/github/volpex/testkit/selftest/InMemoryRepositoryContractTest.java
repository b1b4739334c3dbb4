package io.github.volpex.testkit.selftest;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.testkit.FragmentRepositoryContract;

/** The repository contract against {@link FragmentRepository#inMemory}. */
class InMemoryRepositoryContractTest extends FragmentRepositoryContract {

    @Override
    protected FragmentRepository newRepository(String id) {
        return FragmentRepository.inMemory(id);
    }
}
