package com.example.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.testkit.DataspaceContract;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.TestInfo;

/**
 * An adapter's contract test, as its author writes it; it counts the dataspaces the contract creates, and the race
 * that creates one per round must have run its 200 rounds times the search factor the build set (3).
 */
class InProcessContractTest extends DataspaceContract {

    private final AtomicInteger created = new AtomicInteger();

    @Override
    protected Dataspace create(int processCount, DataspaceOptions options) {
        created.incrementAndGet();
        return Dataspace.inProcess(processCount, options);
    }

    @AfterEach
    void the_race_ran_three_times_its_rounds(TestInfo test) {
        String method = test.getTestMethod().orElseThrow().getName();
        if (method.equals("rule4_same_frontier_race_replicas_started_together_consume_one_tuple")) {
            assertEquals(600, created.get(), "dataspaces created by " + method + " at search factor 3");
        }
    }
}
