package io.github.volpex.testsupport;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyAttributes;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Multiplies every jqwik property's tries by the {@link SearchDepth#factor() search factor}: the tries its
 * annotation gives, or jqwik's default when it gives none. Registered for every property through
 * {@code META-INF/services/net.jqwik.api.lifecycle.LifecycleHook}, so a module's tests need nothing but this
 * artifact on their test class path. With the factor at 1 it changes nothing.
 *
 * <p>A property that fixes its seed keeps it; the deeper search then draws more samples from the same sequence.
 *
 * <p>Stateless and thread-safe.
 */
public final class DeepSearchHook implements AroundPropertyHook {

    /** The tries of a property that names none, as jqwik's own default. */
    static final int JQWIK_DEFAULT_TRIES = 1000;

    /** Creates the hook; jqwik's service loader does. */
    public DeepSearchHook() {
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        int factor = SearchDepth.factor();
        if (factor > 1) {
            PropertyAttributes attributes = context.attributes();
            long tries = (long) attributes.tries().orElse(JQWIK_DEFAULT_TRIES) * factor;
            attributes.setTries((int) Math.min(Integer.MAX_VALUE, tries));
        }
        return property.execute();
    }

    /** Registered once for the whole engine, it reaches every property below it. */
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    /** Runs before the other around-property hooks, so the tries are set before any of them looks. */
    @Override
    public int aroundPropertyProximity() {
        return -100;
    }
}
