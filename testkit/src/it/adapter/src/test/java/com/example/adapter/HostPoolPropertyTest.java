package com.example.adapter;

import io.github.volpex.testkit.HostPool;
import io.github.volpex.testkit.HostPools;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/** A property of the adapter's own over the kit's arbitraries: at search factor 3, its 4 tries become 12. */
class HostPoolPropertyTest {

    private static final AtomicInteger TRIES = new AtomicInteger();

    @Property(tries = 4)
    void counted(@ForAll("pools") HostPool pool) {
        TRIES.incrementAndGet();
    }

    @Provide
    Arbitrary<HostPool> pools() {
        return HostPools.exponential(1, 5, 3600, 600, 86_400);
    }

    @AfterContainer
    static void four_tries_became_twelve() {
        if (TRIES.get() != 12) {
            throw new AssertionError("a property of 4 tries at search factor 3 ran " + TRIES.get() + " tries, not 12");
        }
    }
}
