/**
 * Contract tests, replicated-run schedules and their oracle for adapters of Volpex for Java; add it with test scope.
 *
 * <p>Start from {@link io.github.volpex.testkit.DataspaceContract},
 * {@link io.github.volpex.testkit.ReplicatedRun} or {@link io.github.volpex.testkit.FragmentRepositoryContract};
 * inject storage faults with {@link io.github.volpex.testkit.FaultyRepository}; generate volatile host pools with
 * {@link io.github.volpex.testkit.HostPools}. {@code -Dvolpex.search.factor=N} on the test run multiplies the
 * contracts' randomised rounds and every jqwik property's tries by {@code N}
 * ({@link io.github.volpex.testsupport.SearchDepth}).
 *
 * @since 0.1
 */
module io.github.volpex.testkit {
    requires transitive io.github.volpex.dataspace;
    requires transitive io.github.volpex.checkpoint;
    requires transitive org.junit.jupiter.api;
    requires transitive net.jqwik.api;
    // The contracts' randomised rounds scale with the search factor; reading the module also puts its jqwik hook
    // (every property's tries times the factor) in the graph of a user's tests.
    requires io.github.volpex.testsupport;

    exports io.github.volpex.testkit;
    // JUnit invokes the contracts' test methods reflectively.
    opens io.github.volpex.testkit to org.junit.platform.commons;
}
