package io.github.volpex.examples.remd;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A coarse-grained polymer: {@code N} beads in three dimensions joined by harmonic bonds, with a Lennard-Jones
 * attraction and repulsion between beads that are not bonded. Sampled by Metropolis Monte Carlo at a temperature.
 *
 * <p>Units: lengths in ångström, energies in kcal/mol, temperatures in kelvin. The Boltzmann constant is
 * {@link #BOLTZMANN_KCAL_PER_MOL_K}. The chain is small enough to simulate in milliseconds and rough enough (many
 * local minima) that replica exchange across 270–340 K matters.
 *
 * <p>All arithmetic is plain IEEE-754 double arithmetic in a fixed order, so a chain restored from
 * {@link #toBytes()} and driven by the same random numbers follows exactly the same trajectory, bit for bit. Not
 * thread-safe: each logical process owns its chain.
 */
public final class PolymerChain {

    /** The Boltzmann constant, kcal/(mol·K). */
    public static final double BOLTZMANN_KCAL_PER_MOL_K = 0.0019872041;

    private static final double BOND_LENGTH = 3.8;
    private static final double BOND_STIFFNESS = 20.0;
    private static final double LJ_EPSILON = 1.5;
    private static final double LJ_SIGMA = 4.0;
    private static final double CUTOFF_SQUARED = 12.0 * 12.0;
    private static final int FORMAT = 0x504F4C31; // "POL1"

    private final int beads;
    private final double[] position;

    private PolymerChain(double[] position) {
        this.beads = position.length / 3;
        this.position = position;
    }

    /**
     * Creates a straight chain along x: every bond at its rest length.
     *
     * @param beads the number of beads, at least 2
     * @return the chain
     */
    public static PolymerChain straight(int beads) {
        if (beads < 2) {
            throw new IllegalArgumentException("beads must be >= 2: " + beads);
        }
        double[] position = new double[3 * beads];
        for (int i = 0; i < beads; i++) {
            position[3 * i] = i * BOND_LENGTH;
            // A small zig-zag breaks the symmetry so the first sweeps are not degenerate.
            position[3 * i + 1] = (i % 2) * 0.1;
        }
        return new PolymerChain(position);
    }

    /**
     * Returns the number of beads.
     *
     * @return the number of beads
     */
    public int beads() {
        return beads;
    }

    /**
     * Returns the total potential energy: bonds plus non-bonded Lennard-Jones pairs.
     *
     * @return the energy, kcal/mol
     */
    public double energy() {
        double total = 0.0;
        for (int i = 0; i < beads; i++) {
            total += interaction(i, position[3 * i], position[3 * i + 1], position[3 * i + 2], i + 1);
        }
        return total;
    }

    /**
     * The energy between bead {@code i} placed at (x, y, z) and every bead {@code j ≥ from}, {@code j ≠ i}.
     */
    private double interaction(int i, double x, double y, double z, int from) {
        double total = 0.0;
        for (int j = from; j < beads; j++) {
            if (j == i) {
                continue;
            }
            double dx = x - position[3 * j];
            double dy = y - position[3 * j + 1];
            double dz = z - position[3 * j + 2];
            double r2 = dx * dx + dy * dy + dz * dz;
            if (j == i - 1 || j == i + 1) {
                double stretch = Math.sqrt(r2) - BOND_LENGTH;
                total += BOND_STIFFNESS * stretch * stretch;
            } else if (r2 < CUTOFF_SQUARED) {
                double s2 = LJ_SIGMA * LJ_SIGMA / r2;
                double s6 = s2 * s2 * s2;
                total += 4.0 * LJ_EPSILON * (s6 * s6 - s6);
            }
        }
        return total;
    }

    /**
     * Runs Metropolis Monte Carlo sweeps: each sweep proposes one random displacement per bead and accepts it with
     * probability {@code min(1, e^{−ΔE/kT})}.
     *
     * @param sweeps            the number of sweeps
     * @param temperatureKelvin the temperature
     * @param maxStepAngstrom   the largest displacement along each axis
     * @param random            the random numbers to use (consumed in a fixed order)
     * @return the number of accepted moves
     */
    public int sweep(int sweeps, double temperatureKelvin, double maxStepAngstrom, SplittableRandom random) {
        double beta = 1.0 / (BOLTZMANN_KCAL_PER_MOL_K * temperatureKelvin);
        int accepted = 0;
        for (int s = 0; s < sweeps; s++) {
            for (int n = 0; n < beads; n++) {
                int i = random.nextInt(beads);
                double x = position[3 * i];
                double y = position[3 * i + 1];
                double z = position[3 * i + 2];
                double nx = x + maxStepAngstrom * (2.0 * random.nextDouble() - 1.0);
                double ny = y + maxStepAngstrom * (2.0 * random.nextDouble() - 1.0);
                double nz = z + maxStepAngstrom * (2.0 * random.nextDouble() - 1.0);
                double delta = interaction(i, nx, ny, nz, 0) - interaction(i, x, y, z, 0);
                double u = random.nextDouble();
                if (delta <= 0.0 || u < Math.exp(-beta * delta)) {
                    position[3 * i] = nx;
                    position[3 * i + 1] = ny;
                    position[3 * i + 2] = nz;
                    accepted++;
                }
            }
        }
        return accepted;
    }

    /**
     * Returns the radius of gyration: how compact the chain is.
     *
     * @return the radius of gyration, ångström
     */
    public double radiusOfGyration() {
        double cx = 0;
        double cy = 0;
        double cz = 0;
        for (int i = 0; i < beads; i++) {
            cx += position[3 * i];
            cy += position[3 * i + 1];
            cz += position[3 * i + 2];
        }
        cx /= beads;
        cy /= beads;
        cz /= beads;
        double sum = 0;
        for (int i = 0; i < beads; i++) {
            double dx = position[3 * i] - cx;
            double dy = position[3 * i + 1] - cy;
            double dz = position[3 * i + 2] - cz;
            sum += dx * dx + dy * dy + dz * dz;
        }
        return Math.sqrt(sum / beads);
    }

    /**
     * Serializes the chain exactly (every coordinate's bits).
     *
     * @return {@code 8 + 24·N} bytes
     */
    public byte[] toBytes() {
        ByteBuffer buffer = ByteBuffer.allocate(8 + 8 * position.length);
        buffer.putInt(FORMAT).putInt(beads);
        for (double value : position) {
            buffer.putDouble(value);
        }
        return buffer.array();
    }

    /**
     * Restores a chain written by {@link #toBytes()}.
     *
     * @param bytes the serialized chain
     * @return the chain
     * @throws IllegalArgumentException if the bytes are not a serialized chain
     */
    public static PolymerChain fromBytes(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        if (bytes.length < 8 || buffer.getInt() != FORMAT) {
            throw new IllegalArgumentException("not a serialized polymer chain (" + bytes.length + " bytes)");
        }
        int beads = buffer.getInt();
        if (beads < 2 || bytes.length != 8 + 24L * beads) {
            throw new IllegalArgumentException("serialized chain has " + bytes.length + " bytes for " + beads
                    + " beads");
        }
        double[] position = new double[3 * beads];
        for (int i = 0; i < position.length; i++) {
            position[i] = buffer.getDouble();
        }
        return new PolymerChain(position);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PolymerChain chain && Arrays.equals(position, chain.position);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(position);
    }
}
