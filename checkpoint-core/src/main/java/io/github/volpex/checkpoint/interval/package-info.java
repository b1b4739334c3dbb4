/**
 * When to checkpoint: the interval calculators of the papers and the classical formulas they improve on.
 *
 * <p>Which type to start from:
 * <ul>
 *   <li>{@link io.github.volpex.checkpoint.interval.NiHarwoodModel} — a coordinated job of {@code k} peers with
 *   exponential failures (Ni and Harwood, "An Adaptive Checkpointing Scheme for Peer-to-Peer Based Volunteer
 *   Computing Work Flows", §3.2): the utilization {@code U(λ)} of eqs. 3–10, the optimal rate
 *   {@code λ* = kμ/(1 + W₀(z))}, and the k-peer feasibility check of §3.2.3.
 *   {@link io.github.volpex.checkpoint.interval.AdaptiveCheckpointScheduler} re-evaluates it as the estimates of
 *   {@code μ}, {@code V} and {@code T_d} change and answers "checkpoint now?".</li>
 *   <li>{@link io.github.volpex.checkpoint.interval.RenLookAhead} — one host with any temporal reliability
 *   (Ren, Eigenmann and Bagchi, "Failure-Aware Checkpointing in Fine-Grained Cycle Sharing Systems", §5, eq. 3).</li>
 *   <li>{@link io.github.volpex.checkpoint.interval.RahmanSubhlokModel} — {@code n} processes with {@code r}
 *   replicas each and any replica survival function (Rahman and Subhlok, "Finding Optimal Checkpoint Interval for
 *   Inter-dependent Parallel Processes in Volunteer PC Grids"), and the mean time to interruption of that replicated
 *   system.</li>
 *   <li>{@link io.github.volpex.checkpoint.interval.ClassicalIntervals} — Young's {@code √(2CM)}, Daly's
 *   higher-order estimate and the exact optimum of Daly's model.</li>
 * </ul>
 *
 * <p>Times are seconds as {@code double}, rates per second; survival functions come from the estimators module
 * ({@link io.github.volpex.estimators.SurvivalFunction}).
 *
 * <h2>Blocking and background checkpoints</h2>
 * With an {@linkplain io.github.volpex.checkpoint.store.CheckpointStore#commitAsync asynchronous commit} a checkpoint
 * has two durations: the <i>overhead</i>, the time the job is held (the snapshot), and the <i>latency</i>, until the
 * checkpoint is durable and a failure no longer rolls back past it. Vaidya ("Impact of checkpoint latency on overhead
 * ratio of a checkpointing scheme", IEEE Trans. Computers 46(8), 1997) separates them. The models here read them so:
 * <ul>
 *   <li><b>Young, Daly</b> ({@link io.github.volpex.checkpoint.interval.ClassicalIntervals}): the cost {@code C} is
 *   a blocking checkpoint, overhead and latency in one. Passing the overhead of a background commit as {@code C}
 *   ignores that a failure during the latency loses the previous interval too.</li>
 *   <li><b>Ni–Harwood</b> ({@link io.github.volpex.checkpoint.interval.NiHarwoodModel}): {@code V} is the extra
 *   run time a checkpoint causes, measured (§3.1.2, eq. 2) rather than assumed blocking, so a background persist's
 *   slowdown is counted wherever it falls; the model still restarts the interval when a checkpoint completes.</li>
 *   <li><b>Ren</b> ({@link io.github.volpex.checkpoint.interval.RenLookAhead}): the one paper here that separates
 *   them — the guest is held for the overhead {@code C} (creation and encoding) while the transfer overlaps
 *   computation, and the step {@code δt} is the checkpoint latency (§5), since a checkpoint can start only once the
 *   previous one completed. Pass the measured latency as the step.</li>
 *   <li><b>Rahman–Subhlok</b> ({@link io.github.volpex.checkpoint.interval.RahmanSubhlokModel}): the checkpoint
 *   time {@code T_s} is blocking.</li>
 * </ul>
 * A store's asynchronous commit bounds the work in flight to one persist per job, so an interval shorter than the
 * latency supersedes checkpoints rather than queueing them.
 *
 * <h2>Where the library departs from the papers, and why</h2>
 * <ul>
 *   <li><b>Ni–Harwood.</b> The closed form is evaluated through the offset {@code d = z + 1/e = Vkμ / (e(T_d kμ + 1))}
 *   and {@link io.github.volpex.checkpoint.math.LambertW#onePlusW0(double)}: for small {@code kμV}, {@code z} lies
 *   next to the branch point and forming it first would lose up to half the digits of {@code 1 + W₀}. The
 *   utilization is evaluated as {@code 2 − λV − (e^y − 1)/y − λT_d(e^y − 1)} with {@code y = kμ/λ}, algebraically
 *   equal to eq. 10 but free of cancellation, and the optimal utilization uses the closed form
 *   {@code U* = 2 − (1 + T_d kμ)e^{1 + W₀}} that follows from the optimality condition. The paper's {@code U = 0}
 *   branch of eq. 10 applies when {@code λC ≥ 1}.</li>
 *   <li><b>Ren.</b> Eq. 3 is applied as printed, with the conditional failure probability of the
 *   {@code SurvivalFunction} (accurate for small {@code δt}, where {@code 1 − TR(t + δt)/TR(t)} would cancel).
 *   Planning the next checkpoint examines every step, because the test is not monotone in {@code t} for every
 *   survival function.</li>
 *   <li><b>Rahman–Subhlok.</b> The poster's formula lost its brackets in conversion; the library reads the success
 *   probability of an interval as {@code P(T) = [1 − (1 − S(T))^r]^n} and minimises {@code E(T) = 1/P(T) + T_s/T}
 *   over whole seconds. The poster scans {@code T = 1, 2, ...}; the library's branch-and-bound search returns the
 *   same minimiser without assuming {@code E} unimodal and without scanning millions of points.</li>
 *   <li><b>Daly.</b> The exact optimum is evaluated from the offset {@code (1 − e^{−C/M})/e} for the same reason as
 *   Ni–Harwood's.</li>
 * </ul>
 *
 * @since 0.1
 */
package io.github.volpex.checkpoint.interval;
