package io.github.volpex.testsupport;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyAttributes;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Multiplies every jqwik property's tries by the {@link SearchDepth#factor() search factor}: the tries its
 * annotation gives, or jqwik's default (1000) when it gives none. Registered for every property through
 * {@code META-INF/services/net.jqwik.api.lifecycle.LifecycleHook} on the class path and through the module's
 * {@code provides} clause on the module path, so a test suite needs nothing but this artifact on its test path (the
 * testkit brings it): the properties a user writes over the testkit's arbitraries search as deep as the testkit's own
 * checks. With the factor at 1 it changes nothing.
 *
 * <p>A property that fixes its seed keeps it; the deeper search then draws more samples from the same sequence. The
 * tries are capped at {@link Integer#MAX_VALUE}.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class DeepSearchHook implements AroundPropertyHook {

    /** The tries of a property that names none, as jqwik's own default. */
    static final int JQWIK_DEFAULT_TRIES = 1000;

    /**
     * Creates the hook; jqwik's service loader does, once per test engine run.
     *
     * @since 0.1
     */
    public DeepSearchHook() {
    }

    /**
     * Sets the property's tries to its own tries times {@link SearchDepth#factor()} when the factor is above 1, then
     * runs the property. Never blocks beyond the property's own run.
     *
     * @param context the property's context, whose tries are changed
     * @param property the property's execution
     * @return the property's result, unchanged
     * @throws IllegalArgumentException if the system property {@value SearchDepth#PROPERTY} is malformed (see
     *         {@link SearchDepth#factor()})
     * @since 0.1
     */
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

    /**
     * Registered once for the whole engine, the hook reaches every property below it.
     *
     * @return {@link PropagationMode#ALL_DESCENDANTS}
     * @since 0.1
     */
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    /**
     * Runs before the other around-property hooks, so the tries are set before any of them looks.
     *
     * @return -100: the hook wraps every around-property hook of a higher proximity, jqwik's default 0 included
     * @since 0.1
     */
    @Override
    public int aroundPropertyProximity() {
        return -100;
    }
}
