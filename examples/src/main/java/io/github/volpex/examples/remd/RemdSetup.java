package io.github.volpex.examples.remd;

/**
 * The physics of a replica-exchange run: how many logical processes (one temperature each at the start), the
 * temperature ladder, the chain, and how much sampling each step does.
 *
 * @param processes     the number of logical processes and temperatures, {@code ≥ 2}
 * @param lowestKelvin  the lowest temperature of the ladder
 * @param highestKelvin the highest temperature of the ladder
 * @param beads         beads per chain, {@code ≥ 2}
 * @param steps         exchange steps, {@code ≥ 1}
 * @param sweeps        Monte Carlo sweeps per step, {@code ≥ 1}
 * @param seed          the seed every random number derives from
 */
public record RemdSetup(int processes, double lowestKelvin, double highestKelvin, int beads, int steps, int sweeps,
                        long seed) {

    /** The largest Monte Carlo displacement per axis, ångström. */
    static final double MAX_STEP_ANGSTROM = 0.6;

    /** Validates the setup. */
    public RemdSetup {
        if (processes < 2) {
            throw new IllegalArgumentException("processes must be >= 2: " + processes);
        }
        if (!(lowestKelvin > 0) || !(highestKelvin > lowestKelvin) || Double.isInfinite(highestKelvin)) {
            throw new IllegalArgumentException("temperatures must satisfy 0 < lowest < highest < ∞: "
                    + lowestKelvin + ", " + highestKelvin);
        }
        if (beads < 2 || steps < 1 || sweeps < 1) {
            throw new IllegalArgumentException("beads >= 2, steps >= 1 and sweeps >= 1 are required: " + beads
                    + ", " + steps + ", " + sweeps);
        }
    }

    /**
     * Returns the 8-process ladder of Kanna et al. Fig. 9: 270, 280, …, 340 K.
     *
     * @param steps  exchange steps
     * @param sweeps sweeps per step
     * @param seed   the seed
     * @return the setup
     */
    public static RemdSetup kannaLadder(int steps, int sweeps, long seed) {
        return new RemdSetup(8, 270.0, 340.0, 20, steps, sweeps, seed);
    }

    /**
     * Returns temperature {@code index} of the ladder (evenly spaced).
     *
     * @param index the rung, in {@code [0, processes)}
     * @return the temperature, kelvin
     */
    public double kelvin(int index) {
        return lowestKelvin + (highestKelvin - lowestKelvin) * index / (processes - 1);
    }
}
