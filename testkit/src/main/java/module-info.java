/**
 * Contract tests, replicated-run schedules and their oracle for adapters of Volpex for Java; add it with test scope.
 *
 * <p>Start from {@link io.github.volpex.testkit.DataspaceContract},
 * {@link io.github.volpex.testkit.ReplicatedRun} or {@link io.github.volpex.testkit.FragmentRepositoryContract};
 * inject storage faults with {@link io.github.volpex.testkit.FaultyRepository}; generate volatile host pools with
 * {@link io.github.volpex.testkit.HostPools}.
 *
 * @since 0.1
 */
module io.github.volpex.testkit {
    requires transitive io.github.volpex.dataspace;
    requires transitive io.github.volpex.checkpoint;
    requires transitive org.junit.jupiter.api;
    requires transitive net.jqwik.api;

    exports io.github.volpex.testkit;
    // JUnit invokes the contracts' test methods reflectively.
    opens io.github.volpex.testkit to org.junit.platform.commons;
}
