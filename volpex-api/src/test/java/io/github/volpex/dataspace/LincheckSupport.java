package io.github.volpex.dataspace;

import io.github.volpex.testsupport.SearchDepth;
import java.nio.charset.StandardCharsets;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;

/** The Lincheck runs the linearizability tests share: two threads of three operations, with a few before and after. */
final class LincheckSupport {

    private LincheckSupport() {
    }

    /** Runs {@code test}'s operations concurrently on real threads and checks them against {@code model}. */
    static void stress(Class<?> test, Class<?> model, int iterations, int invocations, int actorsAfter) {
        check(new StressOptions(), test, model, iterations, invocations, actorsAfter);
    }

    /** Explores {@code test}'s interleavings with Lincheck's model checker and checks them against {@code model}. */
    static void modelCheck(Class<?> test, Class<?> model, int iterations, int invocations, int actorsAfter) {
        check(new ModelCheckingOptions(), test, model, iterations, invocations, actorsAfter);
    }

    private static <O extends Options<O, ?>> void check(O options, Class<?> test, Class<?> model, int iterations,
            int invocations, int actorsAfter) {
        options.iterations(SearchDepth.rounds(iterations))
                .invocationsPerIteration(invocations)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(actorsAfter)
                .sequentialSpecification(model)
                .check(test);
    }

    /** A reply's data as UTF-8 text, or null when it has none: how the sequential models return values. */
    static String text(Reply reply) {
        return reply.data().map(b -> new String(b, StandardCharsets.UTF_8)).orElse(null);
    }
}
