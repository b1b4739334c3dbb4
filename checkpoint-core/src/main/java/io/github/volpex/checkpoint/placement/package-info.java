/**
 * Repository selection: which volatile storage hosts should hold a checkpoint's {@code m + k} fragments.
 *
 * <p>Start from {@link io.github.volpex.checkpoint.placement.SelectionProblem#of}, describing each candidate as a
 * {@link io.github.volpex.checkpoint.placement.StorageHost} (bandwidth, storage temporal reliability, optional free
 * space) and choosing an {@link io.github.volpex.checkpoint.placement.Objective}, then hand the problem to a
 * {@link io.github.volpex.checkpoint.placement.RepositorySelector}, usually
 * {@link io.github.volpex.checkpoint.placement.RepositorySelector#greedy()}.
 *
 * <h2>The model (Ren, Eigenmann and Bagchi, "Failure-Aware Checkpointing in Fine-Grained Cycle Sharing Systems",
 * HPDC 2007, §4)</h2>
 * A checkpoint of {@code n} bytes is dispersed into {@code m + k} fragments of {@code n/m} bytes, one per selected
 * host. The network cost is {@code N = Σ_{selected} (n/m)/bw_i} seconds (§4.1). Both 0/1 models of §4.3 are
 * {@code min w·N − B·Π_{selected} TRS_i(τ)} subject to selecting exactly {@code m + k} hosts:
 * <ul>
 *   <li>eq. 1, optimistic: {@code w = MTTF_cmp/CI}, {@code B = T_curr + MTTF_cmp}, {@code τ = MTTF_cmp};</li>
 *   <li>eq. 2, pessimistic: {@code w = 1}, {@code B = T_curr·P_fail}, {@code τ = CI}.</li>
 * </ul>
 *
 * <h2>Where this package departs from the paper, and why</h2>
 * <ul>
 *   <li>{@code P_fail} in eq. 2 is printed {@code (1 − TR(t+CI))/TR(t)} and described as the probability of the job
 *       "not failing" before {@code t + CI}. Neither reading is what the model needs: losing the checkpoint only
 *       matters if the computation host <em>fails</em> within the interval, so the library uses the conditional
 *       failure probability {@code 1 − TR(t+CI)/TR(t)}.</li>
 *   <li>The bypass of §4.3 ("when TR(t+CI) is large") is made precise: the re-execution term is dropped when its
 *       weight {@code B} is below a nanosecond
 *       ({@link io.github.volpex.checkpoint.placement.Objective#NEGLIGIBLE_WEIGHT_SECONDS}); the greedy then returns
 *       the {@code m + k} cheapest hosts, which is optimal.</li>
 *   <li>The greedy's answer is compared with the {@code m + k} cheapest hosts and the better one returned. On 1000
 *       random instances with {@code V ≤ 20} and {@code m + k ≤ 12} the greedy as printed is optimal on 96.7% of
 *       them but loses up to 57% of the optimal expected cost {@code w·N + B·(1 − Π)} on the worst one; with the
 *       comparison it is optimal on 99.6% and its worst gap is 6.2% (on the paper's setting, {@code V = 20},
 *       {@code m + k = 9}: 91.9% → 99.1% optimal, worst 53% → 5.3%). The tests recompute these figures. The worst
 *       gap is not a bound: among 20,000 other random instances of the same kind the guarded greedy's worst is
 *       12.8%.</li>
 *   <li>Greedy (§4.4): adding host {@code h} to a set {@code S} whose survival product is {@code Π_S} changes the
 *       objective by exactly {@code w·N_h + B·Π_S·(1 − TRS_h(τ))}, so each step is one pass over the hosts and the
 *       whole run is {@code O(V·(m + k))}. The two bootstrap rankings need only their top {@code m + k}, found with
 *       a bounded heap in {@code O(V log(m + k))} rather than the paper's full sort. Ties go to the host listed
 *       first, so the greedy is deterministic.</li>
 *   <li>The failure probability {@code 1 − TRS_i(τ)} is taken from
 *       {@link io.github.volpex.estimators.SurvivalFunction#conditionalFailure} so that very reliable hosts keep
 *       their relative differences instead of rounding to zero.</li>
 *   <li>Hosts may carry a capacity; a host without room for one fragment is never selected. Hosts may be
 *       preselected (a repair keeps the hosts that still hold fragments).</li>
 *   <li>The exact solver is the paper's suggested branch and bound, with a bound that pairs the cheapest remaining
 *       costs with the most reliable remaining hosts, seeded with the greedy's answer.</li>
 *   <li>Capacity-proportional selection follows de Camargo, Castor and Kon, "Reliable management of checkpointing
 *       and application data in opportunistic grids" (JBCS 2010), §4.2, where clusters and machines are chosen with
 *       chance proportional to capacity; here the weight is the host's free space, and the draw without replacement
 *       is Efraimidis and Spirakis' weighted random sampling (IPL 97(5), 2006).</li>
 * </ul>
 *
 * @since 0.1
 */
package io.github.volpex.checkpoint.placement;
