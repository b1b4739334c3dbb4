/**
 * How hard randomised tests search and how big the long runs are: shared by every module's own tests and by the
 * testkit's contracts, so an adapter's test suite that runs the contracts gets the same switches. Nothing a
 * production code path calls; add the artifact with test scope (the testkit brings it).
 *
 * <p>Two switches, each a system property the build passes to the tests (see the parent POM and the README's longer
 * runs):
 * <ul>
 *   <li>{@link io.github.volpex.testsupport.SearchDepth} — the search factor ({@code -Pdeep-search} sets it to 100 in
 *       this project's build, {@code -Dvolpex.search.factor=N} in any build):
 *       {@link io.github.volpex.testsupport.DeepSearchHook}, a jqwik hook registered for every container, multiplies
 *       every property's tries by it, and {@code SearchDepth.rounds} and {@code SearchDepth.eachSeed} multiply the
 *       rounds and seeds of every other randomised test (the testkit's contracts included), naming the failing seed
 *       and the flag that replays it. A rare falsification that an ordinary run meets once in thousands of runs is
 *       found in one deep run rather than as a flake weeks later.</li>
 *   <li>{@link io.github.volpex.testsupport.Scale} — the reduced run every build makes, or the full one
 *       ({@code -Pscale}) at the volumes users reach.</li>
 * </ul>
 * Both read their property at each call; neither holds state, so both are thread-safe.
 *
 * @since 0.1
 */
package io.github.volpex.testsupport;
