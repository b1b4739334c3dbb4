/**
 * {@code reproduce}: the papers' evaluations rerun in simulation with the library's own components, and the report
 * they write. Start from {@link io.github.volpex.examples.reproduce.ReproduceCommand}; the results and the reasons
 * they differ from the papers are in {@code examples/REPRODUCTION.md}.
 *
 * <p>The core is {@code Simulation}, a discrete-event queue in virtual time whose clock is handed to the library as an
 * {@code InstantSource} and as nanoseconds, so estimators, the piggyback aggregator and the adaptive scheduler run
 * unchanged and a simulated week costs only its events. Each experiment splits into independent cells that seed their
 * own random streams from the master seed and their labels ({@code Setup.random}), so results do not depend on the
 * number of threads, and policies compared within a cell see the same failures (common random numbers).
 *
 * <ul>
 *   <li>{@code NiHarwoodExperiment} (Ni &amp; Harwood, Fig. 4–5): k peers with exponential lifetimes, constant or
 *       doubling every 20 h; fixed intervals against {@code AdaptiveCheckpointScheduler} fed by
 *       {@code FailureRateEstimator.lastFailures}, {@code DownloadTimeEstimator} and a
 *       {@code PiggybackAggregator}.</li>
 *   <li>{@code RenExperiment} (Ren et al., Fig. 3–5): jobs walked over host availability (Weibull fits or the
 *       microsoft99 replay); {@code RepositorySelector} with Ren's {@code Objective}s, {@code RenLookAhead}.</li>
 *   <li>{@code DeCamargoExperiment} (de Camargo et al., Table 1): a month of departures over a 30-cluster grid, real
 *       bytes through {@code IdaCodec}.</li>
 *   <li>{@code RahmanSubhlokExperiment} (Rahman &amp; Subhlok, Table I): {@code RahmanSubhlokModel} against the
 *       simulated best interval.</li>
 *   <li>{@code KannaExperiment} (Kanna et al., Fig. 2–5): timed calls on the in-process {@code Dataspace}.</li>
 * </ul>
 *
 * <p>Where the papers leave a parameter open (k, job lengths, repetitions, a host lifetime law), the experiment
 * states its choice in its setting lines and REPRODUCTION.md justifies it. Tables and charts come from
 * {@link io.github.volpex.examples.report}; {@code Report} writes each experiment's files and the index.
 */
package io.github.volpex.examples.reproduce;
