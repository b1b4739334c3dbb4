package io.github.volpex.testkit.selftest;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.testkit.FaultyRepository;
import io.github.volpex.testkit.FragmentRepositoryContract;

/** The repository contract against a fault wrapper that injects nothing: the wrapper itself changes no behaviour. */
class FaultFreeRepositoryContractTest extends FragmentRepositoryContract {

    @Override
    protected FragmentRepository newRepository(String id) {
        return FaultyRepository.wrap(FragmentRepository.inMemory(id));
    }
}
