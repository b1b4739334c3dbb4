/**
 * Estimators of how volatile machines fail, and of what a checkpoint costs: the inputs of every checkpoint decision.
 *
 * <h2>Where to start</h2>
 * <ul>
 *   <li><b>Failure rate {@code μ}</b> (Ni and Harwood, §3.1.1, eq. 1): a {@link
 *       io.github.volpex.estimators.FailureRateEstimator} ({@code cumulative}, {@code lastFailures(K)},
 *       {@code timeWindow}, {@code discounted}) fed with observed lifetimes, read as a {@link
 *       io.github.volpex.estimators.RateEstimate}: failures, exposure, the MLE, the bias-corrected rate, chi-square
 *       confidence intervals, and an explicit empty state before the first failure.</li>
 *   <li><b>Checkpoint overhead {@code V}</b> (§3.1.2, eq. 2): {@link io.github.volpex.estimators.CheckpointOverhead}.
 *   </li>
 *   <li><b>Download time {@code T_d}</b> (§3.1.3): {@link io.github.volpex.estimators.DownloadTimeEstimator}.</li>
 *   <li><b>Global estimates</b> (§3.1.4): {@link io.github.volpex.estimators.PiggybackAggregator} over {@link
 *       io.github.volpex.estimators.PeerEstimate}s, giving a {@link io.github.volpex.estimators.GlobalEstimate};
 *       failures gossiped among neighbours (§3.1.1) pass through {@link
 *       io.github.volpex.estimators.NeighbourFailures} first.</li>
 *   <li><b>Temporal reliability {@code TR(t)}</b> (Ren, Eigenmann and Bagchi, §3): a {@link
 *       io.github.volpex.estimators.SurvivalFunction}: exponential, Weibull, log-normal, gamma, the empirical {@link
 *       io.github.volpex.estimators.KaplanMeier}, or a {@link io.github.volpex.estimators.DistributionFit} of a
 *       {@link io.github.volpex.estimators.LifetimeSample}.</li>
 *   <li><b>Traces</b>: {@link io.github.volpex.estimators.TraceReaders} streams the Failure Trace Archive format and
 *       hourly availability matrices as {@link io.github.volpex.estimators.TraceInterval}s.</li>
 * </ul>
 *
 * <p>A scheduler reads, for the Ni–Harwood calculator: {@code estimator.estimate()} (if {@code isEmpty()}, use
 * {@code upperBoundPerSecond(level)} or a prior instead of a rate of zero), {@code overhead.seconds()},
 * {@code downloadTime.seconds()}, and optionally {@code aggregator.global()} for the piggybacked global values.
 *
 * <h2>Readings and departures</h2>
 * <ul>
 *   <li>Eq. 1 sums {@code K} lifetimes (its printed index 0..K is a typo). With right-censored lifetimes the MLE is
 *       failures over total exposure, censored time included; dropping the censored lifetimes (the naive reading)
 *       overstates the rate, by a factor of two when half the sessions are censored. Intervals: {@code 2μT ~
 *       χ²(2K)} for failure-truncated samples, {@code 2K + 2} degrees of freedom for the upper bound of
 *       time-truncated ones.</li>
 *   <li>The windows select or weigh whole observations by when they were recorded, not slices of time: lifetimes
 *       are only known when they end, so slicing would miss the sessions still running and overstate the rate.</li>
 *   <li>Eq. 2 as printed multiplies the CPU-based and message-based ratios, which is not a time; the text describes
 *       two separate estimates. {@code CheckpointOverhead} keeps both and reports their mean.</li>
 *   <li>§3.1.4 averages the peers' estimates. A deployment needs more: estimates expire after a maximum age on the
 *       receiver's clock, invalid ones (NaN, infinite, negative, absurd) are counted and dropped, and the default
 *       aggregate is the median, which tolerates up to {@code ⌊(n − 1)/2⌋} lying peers where the mean tolerates
 *       none.</li>
 *   <li>A gossiped failure is keyed by the failed peer and the start of its session, so hearing it from three
 *       neighbours counts once.</li>
 *   <li>The first interval of a trace began before the trace did: its end, unless the trace ends first, is a real
 *       failure, and only its start is unknown. {@link io.github.volpex.estimators.TraceReaders} marks it
 *       {@linkplain io.github.volpex.estimators.TraceInterval#leftTruncated() left-truncated}, not censored
 *       (counting it as censored dropped 442 of the 15,836 failures of the first 1,000 hosts of the Microsoft desktop
 *       trace and lengthened the exponential mean by 2.9%). The exponential MLE counts such a failure with the exposure
 *       observed, which is exact by memorylessness; the Weibull, log-normal and gamma fits use the likelihood of a
 *       remaining life under a stationary renewal process ({@link io.github.volpex.estimators.DistributionFit} gives
 *       the terms); {@link io.github.volpex.estimators.KaplanMeier} leaves such durations out, which is consistent
 *       for a renewal process, because its risk sets would need the unknown age at entry.</li>
 *   <li>The mean time to failure has its own confidence interval, the reciprocal of the rate's ({@link
 *       io.github.volpex.estimators.RateInterval#meanTimeToFailure()}).</li>
 *   <li>The distribution fits are maximum likelihood with right-censoring. On the LANL05 trace, fitting every
 *       availability interval as complete and leaving out zero-length ones, as the Failure Trace Archive does,
 *       reproduces its published parameters (Javadi, Kondo, Iosup and Epema, JPDC 2013) to every printed digit.
 *       Fits that search the likelihood numerically (censored gamma; Weibull, gamma and log-normal with left
 *       truncation) end with Newton steps on the analytic gradient (the derivative of {@code ln Q(a, x)} in the
 *       shape is the incomplete gamma function's series or continued fraction differentiated term by term), so they
 *       agree with 50-digit maxima to about 10⁻¹⁵ in any time unit, not only where {@code |ln L|} is small.</li>
 *   <li>The special functions (incomplete gamma, chi-square quantiles, digamma, normal tail) are implemented here so
 *       the module needs nothing but the JDK at run time; they are tested against Apache Commons Math and against
 *       50-digit values.</li>
 * </ul>
 *
 * <p>Units: times in seconds as {@code double}, rates per second, everywhere: a {@code LifetimeSample} holds seconds,
 * so every fitted parameter named {@code …Seconds} is in seconds (divide by 3600 to compare with tables in hours).
 * Values are immutable; the mutable estimators are thread-safe (each method is
 * atomic) and take their time from an injected source: the package owns no clock, thread or randomness.
 *
 * @since 0.1
 */
package io.github.volpex.estimators;
