/**
 * How hard randomised tests search, shared by the modules' own tests and the testkit's contracts; add it with test
 * scope (the testkit brings it).
 *
 * <p>Start from {@link io.github.volpex.testsupport.SearchDepth}. The module provides
 * {@link io.github.volpex.testsupport.DeepSearchHook} as a jqwik {@code LifecycleHook} service, so jqwik applies it to
 * every property on the module path as on the class path (where {@code META-INF/services} registers it).
 *
 * @since 0.1
 */
module io.github.volpex.testsupport {
    // DeepSearchHook's signatures are jqwik's lifecycle types: a module that reads this one reads them too.
    requires transitive net.jqwik.api;

    exports io.github.volpex.testsupport;

    provides net.jqwik.api.lifecycle.LifecycleHook with io.github.volpex.testsupport.DeepSearchHook;
}
