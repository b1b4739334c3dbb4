package io.github.volpex.checkpoint.interval;

import io.github.volpex.checkpoint.internal.Checks;
import io.github.volpex.checkpoint.math.LambertW;

/**
 * The runtime-utilization model of Ni and Harwood (§3.2) for a job of {@code k} peers that checkpoint together and
 * all restart when any one fails: its optimal checkpoint rate, the utilization at any rate, and whether {@code k}
 * peers can make progress at all.
 *
 * <p>With {@code a = kμ} the job's failure rate, one cycle of length {@code 1/λ} costs
 * {@code C = V + (T'wc + T_d)/c̄'} (eq. 9), where {@code c̄' = 1/(e^{a/λ} − 1)} cycles complete between failures and
 * {@code T'wc = 1/a − c̄'/λ} is the work lost per failure (eq. 8). The utilization is {@code U(λ) = 1 − λC}, clamped
 * at 0 (eq. 10). Setting {@code dU/dλ = 0} gives the closed form {@code λ* = a / (1 + W₀(z))} with
 * {@code z = (Va − T_d a − 1)/(T_d a + 1) · e⁻¹}; this class evaluates it from the offset
 * {@code d = z + 1/e = Va / (e(T_d a + 1))} with {@link LambertW#onePlusW0(double)}, which keeps full accuracy when
 * {@code aV} is small and {@code z} lies next to the branch point. At the optimum the utilization simplifies to
 * {@code U* = 2 − (1 + T_d a)·e^{a/λ*}}.
 *
 * <p>Immutable and thread-safe. Times are seconds, rates per second.
 *
 * @param peers                     the number of peers {@code k} in the job; {@code ≥ 1}
 * @param failureRatePerSecond      the failure rate {@code μ} of one peer, per second; {@code ≥ 0} and finite
 *                                  ({@code 0}: peers never fail, so the job never needs to checkpoint)
 * @param checkpointOverheadSeconds the time {@code V} one checkpoint adds to the job, in seconds; {@code > 0} and
 *                                  finite
 * @param downloadSeconds           the time {@code T_d} to download a checkpoint image on restart, in seconds;
 *                                  {@code ≥ 0} and finite
 * @since 0.1
 */
public record NiHarwoodModel(int peers, double failureRatePerSecond, double checkpointOverheadSeconds,
        double downloadSeconds) {

    private static final double INV_E = 0.36787944117144233;
    /** Below this offset, {@code 1 + W₀(−1/e + d) = p − p²/3} with {@code p = √(2e·d)}, to far below an ulp. */
    private static final double TINY_OFFSET = 0x1p-120;

    /**
     * Validates the parameters.
     *
     * @param peers                     the number of peers {@code k}; {@code ≥ 1}
     * @param failureRatePerSecond      the failure rate {@code μ} of one peer, per second; {@code ≥ 0}, finite
     * @param checkpointOverheadSeconds the checkpoint overhead {@code V}, in seconds; {@code > 0}, finite
     * @param downloadSeconds           the checkpoint download time {@code T_d}, in seconds; {@code ≥ 0}, finite
     * @throws IllegalArgumentException if {@code peers < 1}, {@code failureRatePerSecond} is negative, NaN or
     *     infinite, {@code checkpointOverheadSeconds} is not positive and finite, {@code downloadSeconds} is
     *     negative, NaN or infinite, or {@code V·k·μ} overflows; the message names the parameter, its value and
     *     the bound
     */
    public NiHarwoodModel {
        Checks.atLeastOne("peers", peers);
        Checks.nonNegativeFinite("failureRatePerSecond", failureRatePerSecond);
        Checks.positiveFinite("checkpointOverheadSeconds", checkpointOverheadSeconds);
        Checks.nonNegativeFinite("downloadSeconds", downloadSeconds);
        // −0.0 and 0.0 are the same rate and time: keep one of them, so that equal models are equal.
        failureRatePerSecond += 0.0;
        downloadSeconds += 0.0;
        if (checkpointOverheadSeconds * peers * failureRatePerSecond == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("checkpointOverheadSeconds * peers * failureRatePerSecond must be "
                    + "finite: " + checkpointOverheadSeconds + " * " + peers + " * " + failureRatePerSecond);
        }
    }

    /**
     * Returns the model for the given parameters (the canonical constructor, named).
     *
     * @param peers                     the number of peers {@code k}; {@code ≥ 1}
     * @param failureRatePerSecond      the failure rate {@code μ} of one peer, per second; {@code ≥ 0}, finite
     * @param checkpointOverheadSeconds the checkpoint overhead {@code V}, in seconds; {@code > 0}, finite
     * @param downloadSeconds           the checkpoint download time {@code T_d}, in seconds; {@code ≥ 0}, finite
     * @return the model
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static NiHarwoodModel of(int peers, double failureRatePerSecond, double checkpointOverheadSeconds,
            double downloadSeconds) {
        return new NiHarwoodModel(peers, failureRatePerSecond, checkpointOverheadSeconds, downloadSeconds);
    }

    /**
     * Returns the job's failure rate {@code kμ}.
     *
     * @return {@code peers · failureRatePerSecond}, per second
     */
    public double jobFailureRatePerSecond() {
        return peers * failureRatePerSecond;
    }

    /**
     * The offset {@code d = z + 1/e = Va / (e(T_d a + 1))} of the Lambert W argument, formed without cancellation;
     * as {@code V / (e(T_d + 1/a))} when {@code T_d a} overflows (then {@code a > 1}).
     */
    private double offset(double a) {
        double denominator = downloadSeconds * a + 1.0;
        if (denominator == Double.POSITIVE_INFINITY) {
            return checkpointOverheadSeconds / (downloadSeconds + 1.0 / a) * INV_E;
        }
        return checkpointOverheadSeconds * a / denominator * INV_E;
    }

    /**
     * Returns the optimal checkpoint rate {@code λ* = kμ / (1 + W₀(z))}, the rate that maximises the utilization.
     *
     * @return {@code λ*}, checkpoints per second; {@code 0} when {@code μ = 0}
     */
    public double optimalRatePerSecond() {
        double a = jobFailureRatePerSecond();
        if (a == 0.0) {
            return 0.0;
        }
        double d = offset(a);
        if (d < TINY_OFFSET) {
            return 1.0 / tinyOffsetIntervalSeconds(a);
        }
        return a / LambertW.onePlusW0(d);
    }

    /**
     * Returns the optimal checkpoint interval {@code 1/λ*}. For small {@code kμV} it tends to Young's
     * {@code √(2V/(kμ))}.
     *
     * @return the interval between checkpoints, in seconds; {@code +∞} when {@code μ = 0}
     */
    public double optimalIntervalSeconds() {
        double a = jobFailureRatePerSecond();
        if (a == 0.0) {
            return Double.POSITIVE_INFINITY;
        }
        double d = offset(a);
        if (d < TINY_OFFSET) {
            return tinyOffsetIntervalSeconds(a);
        }
        return LambertW.onePlusW0(d) / a;
    }

    /**
     * {@code (1 + W₀)/a} when {@code d < 2⁻¹²⁰}: then {@code 1 + W₀ = p − p²/3} to far below an ulp, with
     * {@code p = √(2e·d) = √(2Va/(T_d a + 1))}, and the interval is {@code √(2V/((T_d a + 1)a))·(1 − p/3)},
     * evaluated without forming {@code Va}, which may underflow.
     */
    private double tinyOffsetIntervalSeconds(double a) {
        double denominator = downloadSeconds * a + 1.0;
        if (denominator == Double.POSITIVE_INFINITY) {
            // T_d a overflows, so a > 1 and p = √(2V/(T_d + 1/a)) loses nothing.
            double p = Math.sqrt(2.0 * checkpointOverheadSeconds) / Math.sqrt(downloadSeconds + 1.0 / a);
            return p / a * (1.0 - p / 3.0);
        }
        double ratio = 2.0 * checkpointOverheadSeconds / denominator;
        double p = Math.sqrt(ratio) * Math.sqrt(a);
        return Math.sqrt(ratio) / Math.sqrt(a) * (1.0 - p / 3.0);
    }

    /**
     * Returns the utilization {@code U(λ) = 1 − λC} (eq. 10), clamped at 0, evaluated as
     * {@code 2 − λV − (e^y − 1)/y − λT_d(e^y − 1)} with {@code y = kμ/λ} so that nothing cancels when {@code λ}
     * is large.
     *
     * @param ratePerSecond the checkpoint rate {@code λ}, per second; {@code ≥ 0} ({@code +∞} allowed)
     * @return the fraction of time spent on useful work, in {@code [0, 1]}
     * @throws IllegalArgumentException if {@code ratePerSecond} is negative or NaN
     */
    public double utilization(double ratePerSecond) {
        Checks.nonNegative("ratePerSecond", ratePerSecond);
        double a = jobFailureRatePerSecond();
        if (a == 0.0) {
            return Math.max(0.0, 1.0 - ratePerSecond * checkpointOverheadSeconds);
        }
        if (ratePerSecond == 0.0 || ratePerSecond == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        double y = a / ratePerSecond;
        double growth = Math.expm1(y);
        double u = 2.0 - ratePerSecond * checkpointOverheadSeconds - growth / y
                - ratePerSecond * downloadSeconds * growth;
        return u > 0.0 ? u : 0.0;
    }

    /**
     * Returns the utilization at the optimal rate, {@code U* = 2 − (1 + T_d kμ)·e^{kμ/λ*}}, clamped at 0.
     *
     * @return the best achievable utilization, in {@code [0, 1]}; {@code 1} when {@code μ = 0}
     */
    public double optimalUtilization() {
        double a = jobFailureRatePerSecond();
        double u = 2.0 - (1.0 + downloadSeconds * a) * Math.exp(LambertW.onePlusW0(offset(a)));
        return u > 0.0 ? u : 0.0;
    }

    /**
     * Returns whether {@code k} peers can make progress: whether the optimal utilization is positive (§3.2.3: a zero
     * utilization means the job uses too many peers for the current failure rate and costs).
     *
     * @return {@code optimalUtilization() > 0}
     */
    public boolean feasible() {
        return optimalUtilization() > 0.0;
    }

    /**
     * Returns the largest number of peers whose optimal utilization is still positive, for the given per-peer
     * failure rate and costs (§3.2.3). The optimal utilization decreases strictly with {@code k}, so this is found by
     * doubling and bisection in {@code O(log k)} evaluations.
     *
     * @param failureRatePerSecond      the failure rate {@code μ} of one peer, per second; {@code ≥ 0}, finite
     * @param checkpointOverheadSeconds the checkpoint overhead {@code V}, in seconds; {@code > 0}, finite
     * @param downloadSeconds           the checkpoint download time {@code T_d}, in seconds; {@code ≥ 0}, finite
     * @return the largest feasible {@code k}; {@code 0} if not even one peer is feasible; {@link Integer#MAX_VALUE}
     *     if every {@code k} that fits in an {@code int} is feasible (for example when {@code μ = 0})
     * @throws IllegalArgumentException if an argument is out of its range (see {@link NiHarwoodModel})
     */
    public static int maxFeasiblePeers(double failureRatePerSecond, double checkpointOverheadSeconds,
            double downloadSeconds) {
        if (!of(1, failureRatePerSecond, checkpointOverheadSeconds, downloadSeconds).feasible()) {
            return 0;
        }
        long good = 1;
        long bad = 2;
        while (bad <= Integer.MAX_VALUE
                && of((int) bad, failureRatePerSecond, checkpointOverheadSeconds, downloadSeconds).feasible()) {
            good = bad;
            bad *= 2;
        }
        if (bad > Integer.MAX_VALUE) {
            if (of(Integer.MAX_VALUE, failureRatePerSecond, checkpointOverheadSeconds, downloadSeconds).feasible()) {
                return Integer.MAX_VALUE;
            }
            bad = Integer.MAX_VALUE;
        }
        while (bad - good > 1) {
            long mid = (good + bad) >>> 1;
            if (of((int) mid, failureRatePerSecond, checkpointOverheadSeconds, downloadSeconds).feasible()) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        return (int) good;
    }
}
