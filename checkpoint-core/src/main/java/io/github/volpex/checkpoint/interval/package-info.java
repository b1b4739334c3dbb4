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
 *   <li>{@link io.github.volpex.checkpoint.interval.VaidyaModel} — a checkpoint that holds the job for its overhead
 *   {@code C} and is durable only after its latency {@code L ≥ C}, as with an asynchronous commit, under exponential
 *   failures (Vaidya, "Impact of checkpoint latency on overhead ratio of a checkpointing scheme", IEEE Trans.
 *   Computers 46(8), 1997): the overhead ratio, the optimal interval and the ratio there.</li>
 * </ul>
 *
 * <p>Times are seconds as {@code double}, rates per second; survival functions come from the estimators module
 * ({@link io.github.volpex.estimators.SurvivalFunction}).
 *
 * <h2>Blocking and background checkpoints</h2>
 * With an {@linkplain io.github.volpex.checkpoint.store.CheckpointStore#commitAsync asynchronous commit} a checkpoint
 * has two durations: the <i>overhead</i> {@code C}, the time the job is held (the snapshot), and the <i>latency</i>
 * {@code L ≥ C}, until the checkpoint is durable and a failure no longer rolls back past it. Vaidya (1997) separates
 * them. The models here read them so:
 * <ul>
 *   <li><b>Young, Daly, exact</b> ({@link io.github.volpex.checkpoint.interval.ClassicalIntervals}): blocking. The
 *   cost {@code C} is overhead and latency in one; the models charge a failure the work since the last checkpoint
 *   ended. They take no latency. Passing the overhead of a background commit as {@code C} forgets that a failure
 *   during the latency loses the previous interval too; use {@code VaidyaModel} instead, which with {@code L = C}
 *   is the exact optimum.</li>
 *   <li><b>Vaidya</b> ({@link io.github.volpex.checkpoint.interval.VaidyaModel}): takes a latency; built for it.</li>
 *   <li><b>Ni–Harwood</b> ({@link io.github.volpex.checkpoint.interval.NiHarwoodModel}): {@code V} is the extra
 *   run time a checkpoint causes, measured (§3.1.2, eq. 2) rather than assumed blocking, so a background persist's
 *   slowdown is counted wherever it falls; but the work lost per failure (eq. 8) runs from the last checkpoint's
 *   end, as if each checkpoint were durable when it ends: blocking in that respect. The model takes no latency;
 *   {@link io.github.volpex.checkpoint.interval.AdaptiveCheckpointScheduler} measures one and applies it as below.</li>
 *   <li><b>Ren</b> ({@link io.github.volpex.checkpoint.interval.RenLookAhead}): the one paper of the volunteer
 *   computing set that separates them — the guest is held for the overhead {@code C} (creation and encoding) while
 *   the transfer overlaps computation, and the step {@code δt} is the checkpoint latency (§5), since a checkpoint
 *   can start only once the previous one completed. It takes a latency: pass the measured latency as the step.</li>
 *   <li><b>Rahman–Subhlok</b> ({@link io.github.volpex.checkpoint.interval.RahmanSubhlokModel}): blocking; the
 *   checkpoint time {@code T_s} is time the job does not compute, and the model takes no latency.</li>
 * </ul>
 * The adaptive scheduler measures both durations of each commit
 * ({@link io.github.volpex.checkpoint.interval.AdaptiveCheckpointScheduler#checkpoint(java.util.function.Supplier)}
 * from the stage the store returns, or {@code recordBlocking} and {@code recordLatency}); it never makes a checkpoint
 * due sooner than {@code L − C} after the previous one, and offers the job's {@code VaidyaModel}. A store's
 * asynchronous commit bounds the work in flight to one persist per job, so an interval shorter than {@code L − C}
 * would supersede or queue checkpoints rather than add durable ones.
 *
 * <h2>Vaidya's model</h2>
 * Here, as in the paper, {@code λ} is the failure rate (in Ni–Harwood's notation it is the checkpoint rate, and
 * the failure rate of one peer is {@code μ}; the scheduler's {@code VaidyaModel} uses the job's {@code kμ}).
 * Failures form a Poisson process of rate {@code λ}. Each interval carries {@code T} seconds of useful work and
 * {@code C} of overhead; a checkpoint started at the end of one interval is durable {@code L} seconds later, and the
 * {@code L − C} seconds of computation in between belong to the next interval. A failure costs a recovery of
 * {@code R} seconds, and rolls the job back to the last durable checkpoint, whose state predates its durability by
 * those {@code L − C} seconds. Counting an interval from the moment one checkpoint is durable to the moment the next
 * is, a failure-free run of {@code T + C} completes it, and after a failure a failure-free run of
 * {@code R + (L − C) + T + C} does; renewal arguments give the expected time per interval and the overhead ratio
 * <pre>
 *   (V1)  Γ(T) = e^{λ(L − C + R)} · (e^{λ(T + C)} − 1) / λ
 *   (V2)  r(T) = Γ(T)/T − 1
 * </pre>
 * (with {@code L = C} and {@code R = 0}, {@code r} is the overhead ratio of the blocking model). The first factor
 * of (V1) does not depend on {@code T}, so {@code dr/dT = 0} is the blocking condition
 * {@code e^{λ(T + C)}(1 − λT) = 1}, solved by
 * <pre>
 *   (V3)  T* = (1 + W₀(−e^{−(1 + λC)})) / λ,      and there   (V4)  r(T*) = e^{λ(T* + L + R)} − 1,
 * </pre>
 * the latter from the condition ({@code (e^{λ(T*+C)} − 1)/(λT*) = e^{λ(T*+C)}}). This is the paper's headline: the
 * optimal interval is independent of the latency (and of the recovery time), which only scales the expected time,
 * by {@code e^{λ(L − C)}}; and since {@code ∂r/∂C = (∂r/∂L)/(e^{λ(T + C)} − 1)}, a second less overhead is worth
 * many seconds more latency when {@code λ(T + C)} is small. (V1)–(V4) are this package's labels for these
 * statements, not the paper's equation numbers. The tests check (V3) and (V4) against a 70-digit minimisation of
 * (V1)–(V2) that uses neither.
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
 *   <li><b>Vaidya.</b> The model needs each checkpoint durable before the next starts ({@code T + C ≥ L}); the
 *   library enforces it, and its optimum is {@code max(T*, L − C)} (as {@code r} falls and then rises in {@code T},
 *   this is the constrained minimiser), with the ratio there from (V2) when the bound binds. {@code r(T)} is
 *   evaluated as {@code [(e^a − 1)(e^b − 1) + (e^b − 1 − b) + λC]/(λT)} with {@code a = λ(L − C + R)} and
 *   {@code b = λ(T + C)}, a sum of non-negative terms, where (V1)–(V2) as printed would cancel when {@code λT} is
 *   small; {@code T*} goes through the offset {@code (1 − e^{−λC})/e} as Daly's does, and (V4) is evaluated from
 *   {@code λT*}, which stays finite where {@code T*} might not.</li>
 *   <li><b>The scheduler.</b> Ni–Harwood's model has no latency; the scheduler applies the one consequence of a
 *   latency that does not depend on the model, the bound {@code L − C}, and leaves the Ni–Harwood optimum
 *   otherwise as it is (in Vaidya's model, too, the latency moves the optimum only through this bound).</li>
 * </ul>
 *
 * @since 0.1
 */
package io.github.volpex.checkpoint.interval;
