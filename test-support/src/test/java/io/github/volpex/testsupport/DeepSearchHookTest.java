package io.github.volpex.testsupport;

import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/** The hook, registered through the service file, multiplies the tries a property's annotation gives. */
class DeepSearchHookTest {

    private static final AtomicInteger TRIED = new AtomicInteger();
    private static String saved;

    @BeforeContainer
    static void deepen() {
        saved = System.getProperty(SearchDepth.PROPERTY);
        System.setProperty(SearchDepth.PROPERTY, "3");
    }

    @Property(tries = 7)
    void counted(@ForAll int anything) {
        TRIED.incrementAndGet();
    }

    @AfterContainer
    static void seven_tries_became_twenty_one() {
        if (saved == null) {
            System.clearProperty(SearchDepth.PROPERTY);
        } else {
            System.setProperty(SearchDepth.PROPERTY, saved);
        }
        if (TRIED.get() != 21) {
            throw new AssertionError("a property of 7 tries at factor 3 ran " + TRIED.get() + " tries, not 21");
        }
    }
}
