package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.testkit.Fault;
import io.github.volpex.testkit.FaultSchedule;
import io.github.volpex.testkit.FaultyRepository;
import io.github.volpex.testkit.RepositoryCall;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fault schedule for the testkit's {@link FaultyRepository} that, once armed, holds the first write of an index copy
 * ({@code …idx}, the step of a commit just before the store asks its epoch source) until released: a commit frozen
 * between its fragments and its commit point, as a writer paused by a long GC or a partition would be. One gate serves
 * all the repositories of a store. A write held for more than 60 s fails as an injected fault.
 */
final class IndexGate implements FaultSchedule {

    private final AtomicReference<CountDownLatch[]> armed = new AtomicReference<>();

    /** Wraps each repository so that its index writes pass this gate. */
    List<FragmentRepository> guard(List<? extends FragmentRepository> repositories) {
        List<FaultyRepository> wrapped = FaultyRepository.wrapAll(repositories);
        wrapped.forEach(repository -> repository.schedule(this));
        return List.copyOf(wrapped);
    }

    /** Arms the gate: the next index write blocks until {@link #release()}. */
    void arm() {
        armed.set(new CountDownLatch[] {new CountDownLatch(1), new CountDownLatch(1)});
    }

    /** Waits until a write is held. */
    boolean awaitHeld(long seconds) throws InterruptedException {
        CountDownLatch[] latches = armed.get();
        return latches != null && latches[0].await(seconds, TimeUnit.SECONDS);
    }

    /** Lets the held write (and every later one) through. */
    void release() {
        CountDownLatch[] latches = armed.getAndSet(null);
        if (latches != null) {
            latches[0].countDown();
            latches[1].countDown();
        }
    }

    @Override
    public Fault next(String repositoryId, RepositoryCall call, String key) {
        CountDownLatch[] latches = armed.get();
        boolean indexWrite = (call == RepositoryCall.PUT || call == RepositoryCall.COMMIT) && key.endsWith(".idx");
        if (latches == null || !indexWrite || latches[0].getCount() == 0) {
            return Fault.NONE;
        }
        latches[0].countDown();
        try {
            return latches[1].await(60, TimeUnit.SECONDS) ? Fault.NONE : Fault.FAIL;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return Fault.FAIL;
        }
    }
}
