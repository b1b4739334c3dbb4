package io.github.volpex.examples.remd;

import io.github.volpex.dataspace.Replica;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One logical process of replica-exchange Monte Carlo (Kanna et al. §IV-C) communicating through the dataspace.
 *
 * <p>Every step, the process samples its chain at the temperature of the rung it holds, then tries to swap rungs with
 * its neighbour on the ladder (even rungs pair upwards on even steps, odd rungs on odd steps): both partners
 * {@code put} their energy and {@code get} the other's, and accept the swap by the Metropolis criterion
 * {@code u < e^{(β_i − β_j)(E_i − E_j)}} with one random number {@code u} both derive from the same seed, so both
 * reach the same decision. Process 0 then gathers every process's rung (the temperature history of Kanna et al.
 * Fig. 9) and publishes it, which also ends the step for everyone.
 *
 * <p>All randomness is derived from (seed, process, step) and all arithmetic is deterministic, so every replica of a
 * process, and a replica restarted from a checkpoint, computes exactly the same trajectory.
 */
public final class RemdProcess {

    /** How many parts each step's sweeps are cut into; a replica may die between any two. */
    public static final int CHUNKS_PER_STEP = 8;

    /** Where the host application observes and steers a running replica. */
    public interface Hooks {

        /**
         * Called before each part of a step's sampling; throwing here kills the replica mid-step.
         *
         * @param step  the step being computed, from 1
         * @param chunk the part about to run, in {@code [0, CHUNKS_PER_STEP)}
         */
        void beforeChunk(int step, int chunk);

        /**
         * Called after every completed step, with the state a checkpoint would save.
         *
         * @param state the state after the step
         */
        void afterStep(RemdState state);
    }

    /** Hooks that do nothing: a failure-free run. */
    public static final Hooks NO_HOOKS = new Hooks() {
        @Override
        public void beforeChunk(int step, int chunk) {
        }

        @Override
        public void afterStep(RemdState state) {
        }
    };

    /**
     * What one process ends with. Replicas of a process, and runs with and without failures, must produce equal
     * outcomes.
     *
     * @param process     the logical process
     * @param finalRung   the rung it holds at the end
     * @param energyBits  the raw bits of its chain's final energy
     * @param chainHash   a hash of every coordinate's bits
     * @param history     process 0: per step, every process's rung after the exchange; others: empty
     */
    public record Outcome(int process, int finalRung, long energyBits, int chainHash, List<List<Integer>> history) {

        /**
         * Returns the final energy.
         *
         * @return the energy, kcal/mol
         */
        public double energy() {
            return Double.longBitsToDouble(energyBits);
        }
    }

    private final RemdSetup setup;

    private RemdProcess(RemdSetup setup) {
        this.setup = setup;
    }

    /**
     * Returns the program of the processes of {@code setup}.
     *
     * @param setup the run
     * @return the program
     */
    public static RemdProcess of(RemdSetup setup) {
        return new RemdProcess(setup);
    }

    /**
     * Runs the remaining steps of a process from {@code state}.
     *
     * @param replica the replica's dataspace handle, opened at {@code state.requestNumber()}
     * @param state   where to start; advanced in place
     * @param hooks   the host application's hooks
     * @return the outcome after the last step
     * @throws InterruptedException if interrupted while waiting for a neighbour
     */
    public Outcome run(Replica replica, RemdState state, Hooks hooks) throws InterruptedException {
        int processes = setup.processes();
        for (int step = state.completedSteps + 1; step <= setup.steps(); step++) {
            SplittableRandom random = new SplittableRandom(mix(setup.seed(), state.process, step));
            double kelvin = setup.kelvin(state.rung);
            for (int chunk = 0; chunk < CHUNKS_PER_STEP; chunk++) {
                hooks.beforeChunk(step, chunk);
                int sweeps = setup.sweeps() * (chunk + 1) / CHUNKS_PER_STEP - setup.sweeps() * chunk / CHUNKS_PER_STEP;
                state.chain.sweep(sweeps, kelvin, RemdSetup.MAX_STEP_ANGSTROM, random);
            }
            exchange(replica, state, step);

            if (state.process == 0) {
                int[] row = new int[processes];
                row[0] = state.rung;
                for (int q = 1; q < processes; q++) {
                    row[q] = ByteBuffer.wrap(replica.get("rung/" + step + "/" + q)).getInt();
                }
                state.history.add(row);
                replica.put("step/" + step, encode(row));
            } else {
                replica.put("rung/" + step + "/" + state.process, ByteBuffer.allocate(4).putInt(state.rung).array());
                replica.read("step/" + step);
            }
            state.completedSteps = step;
            state.requestNumber = replica.requestNumber();
            hooks.afterStep(state);
        }
        return outcome(state);
    }

    private void exchange(Replica replica, RemdState state, int step) throws InterruptedException {
        int partner = state.rung % 2 == step % 2 ? state.rung + 1 : state.rung - 1;
        if (partner < 0 || partner >= setup.processes()) {
            return;
        }
        double energy = state.chain.energy();
        replica.put("energy/" + step + "/" + state.rung, ByteBuffer.allocate(8).putDouble(energy).array());
        double partnerEnergy = ByteBuffer.wrap(replica.get("energy/" + step + "/" + partner)).getDouble();
        int lower = Math.min(state.rung, partner);
        double lowerEnergy = lower == state.rung ? energy : partnerEnergy;
        double upperEnergy = lower == state.rung ? partnerEnergy : energy;
        double betaLower = 1.0 / (PolymerChain.BOLTZMANN_KCAL_PER_MOL_K * setup.kelvin(lower));
        double betaUpper = 1.0 / (PolymerChain.BOLTZMANN_KCAL_PER_MOL_K * setup.kelvin(lower + 1));
        double exponent = (betaLower - betaUpper) * (lowerEnergy - upperEnergy);
        double u = new SplittableRandom(mix(setup.seed(), -1 - lower, step)).nextDouble();
        if (exponent >= 0.0 || u < Math.exp(exponent)) {
            state.rung = partner;
        }
    }

    /**
     * Returns the outcome a state represents.
     *
     * @param state a state after the last step
     * @return its outcome
     */
    public static Outcome outcome(RemdState state) {
        List<List<Integer>> history = new ArrayList<>();
        for (int[] row : state.history) {
            List<Integer> copy = new ArrayList<>();
            for (int value : row) {
                copy.add(value);
            }
            history.add(List.copyOf(copy));
        }
        return new Outcome(state.process, state.rung, Double.doubleToRawLongBits(state.chain.energy()),
                state.chain.hashCode(), List.copyOf(history));
    }

    private static byte[] encode(int[] row) {
        ByteBuffer buffer = ByteBuffer.allocate(4 * row.length);
        for (int value : row) {
            buffer.putInt(value);
        }
        return buffer.array();
    }

    /** Derives an independent stream seed from a seed and two indexes. */
    static long mix(long seed, long a, long b) {
        long z = seed + 0x9E3779B97F4A7C15L * (a * 0x632BE59BD9B4E019L + b + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
