/**
 * What every module's tests share, and nothing a user's code calls: how deep the randomised tests search and how big
 * the long runs are. Test scope only; never published.
 *
 * <p>Two switches, each a system property the build passes to the tests (see the parent POM and the README's longer
 * runs):
 * <ul>
 *   <li>{@link io.github.volpex.testsupport.SearchDepth} — the search factor ({@code -Pdeep-search} sets it to 100):
 *       {@link io.github.volpex.testsupport.DeepSearchHook}, a jqwik hook registered for every container, multiplies
 *       every property's tries by it, and {@code SearchDepth.eachSeed} multiplies the seeds of every other randomised
 *       test, naming the failing seed and the flag that replays it. A rare falsification that an ordinary run meets
 *       once in thousands of runs is found in one deep run rather than as a flake weeks later.</li>
 *   <li>{@link io.github.volpex.testsupport.Scale} — the reduced run every build makes, or the full one
 *       ({@code -Pscale}) at the volumes users reach.</li>
 * </ul>
 * Both read their property at each call; neither holds state, so both are thread-safe.
 */
package io.github.volpex.testsupport;
