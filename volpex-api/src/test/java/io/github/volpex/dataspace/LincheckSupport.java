package io.github.volpex.dataspace;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/** The Lincheck runs the linearizability tests share: two threads of three operations, with a few before and after. */
final class LincheckSupport {

    private LincheckSupport() {
    }

    /** Runs {@code test}'s operations concurrently on real threads and checks them against {@code model}. */
    static void stress(Class<?> test, Class<?> model, int iterations, int invocations, int actorsAfter) {
        new StressOptions()
                .iterations(iterations)
                .invocationsPerIteration(invocations)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(actorsAfter)
                .sequentialSpecification(model)
                .check(test);
    }

    /** Explores {@code test}'s interleavings with Lincheck's model checker and checks them against {@code model}. */
    static void modelCheck(Class<?> test, Class<?> model, int iterations, int invocations, int actorsAfter) {
        new ModelCheckingOptions()
                .iterations(iterations)
                .invocationsPerIteration(invocations)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(actorsAfter)
                .sequentialSpecification(model)
                .check(test);
    }
}
