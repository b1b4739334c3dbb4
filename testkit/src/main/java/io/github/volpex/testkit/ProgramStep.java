package io.github.volpex.testkit;

import io.github.volpex.dataspace.Operation;
import java.util.Objects;

/**
 * One call of a replicated program: the kind of request and its tag. A put's data is derived from the call's position
 * ({@link ReplicatedPrograms#data(int, int)}), so that every value in a run is distinct and names its origin.
 *
 * <p>Immutable and thread-safe.
 *
 * @param operation the kind of call
 * @param tag       its tag, non-empty
 * @since 0.1
 */
public record ProgramStep(Operation operation, String tag) {

    /**
     * Validates the step.
     *
     * @param operation the kind of call
     * @param tag       its tag, non-empty
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if the tag is empty
     */
    public ProgramStep {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(tag, "tag");
        if (tag.isEmpty()) {
            throw new IllegalArgumentException("tag must not be empty");
        }
    }
}
