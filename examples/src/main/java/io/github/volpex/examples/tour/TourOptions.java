package io.github.volpex.examples.tour;

import io.github.volpex.examples.cli.OptionChecks;
import io.github.volpex.examples.remd.RemdSetup;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every run of the tour takes, in one JVM ({@code tour}) or across JVMs ({@code cluster}): the physics,
 * the replication, the host laws, the storage pool and the virtual costs. A picocli mixin; each value is checked as it
 * is parsed. The storage pool's defaults differ between the commands: each gives its own through a {@link Defaults}.
 */
public final class TourOptions {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    private int replicas;
    private int steps;
    private int sweeps;
    private int beads;
    private long seed;
    private double stepMinutes;
    private String lifetime;
    private double shape;
    private double scaleHours;
    private int storageHosts;
    private double storageScaleHours;
    private double checkpointSeconds;
    private double downloadSeconds;

    @Option(names = "--replicas", paramLabel = "N", defaultValue = "2",
            description = "replicas per logical process [1, 5] (default ${DEFAULT-VALUE})")
    void replicas(int value) {
        replicas = OptionChecks.inRange(spec, "--replicas", value, 1, 5);
    }

    @Option(names = "--steps", paramLabel = "N", defaultValue = "60",
            description = "replica-exchange steps [1, 10000] (default ${DEFAULT-VALUE})")
    void steps(int value) {
        steps = OptionChecks.inRange(spec, "--steps", value, 1, 10_000);
    }

    @Option(names = "--sweeps", paramLabel = "N", defaultValue = "2500",
            description = "Monte Carlo sweeps per step [1, 1000000] (default ${DEFAULT-VALUE})")
    void sweeps(int value) {
        sweeps = OptionChecks.inRange(spec, "--sweeps", value, 1, 1_000_000);
    }

    @Option(names = "--beads", paramLabel = "N", defaultValue = "20",
            description = "beads per polymer chain [2, 200] (default ${DEFAULT-VALUE})")
    void beads(int value) {
        beads = OptionChecks.inRange(spec, "--beads", value, 2, 200);
    }

    @Option(names = "--seed", paramLabel = "N", defaultValue = "2009",
            description = "seed of the physics and of the host pool [" + Long.MIN_VALUE + ", " + Long.MAX_VALUE
                    + "] (default ${DEFAULT-VALUE})")
    void seed(long value) {
        seed = value;
    }

    @Option(names = "--step-minutes", paramLabel = "X", defaultValue = "5.0",
            description = "virtual minutes one step of sampling takes [0.01, 10000.0] (default ${DEFAULT-VALUE})")
    void stepMinutes(double value) {
        stepMinutes = OptionChecks.inRange(spec, "--step-minutes", value, 0.01, 10_000.0);
    }

    @Option(names = "--lifetime", paramLabel = "weibull|exponential", defaultValue = "weibull",
            description = "compute-host lifetime law (default ${DEFAULT-VALUE})")
    void lifetime(String value) {
        lifetime = OptionChecks.oneOf(spec, "--lifetime", value, List.of("weibull", "exponential"));
    }

    @Option(names = "--shape", paramLabel = "X", defaultValue = "0.7",
            description = "Weibull shape of compute-host lifetimes (weibull only) [0.1, 10.0] (default "
                    + "${DEFAULT-VALUE})")
    void shape(double value) {
        shape = OptionChecks.inRange(spec, "--shape", value, 0.1, 10.0);
    }

    @Option(names = "--scale-hours", paramLabel = "X", defaultValue = "3.0",
            description = "compute-host lifetime scale, hours (the mean for exponential) [0.01, 1000000.0] (default "
                    + "${DEFAULT-VALUE})")
    void scaleHours(double value) {
        scaleHours = OptionChecks.inRange(spec, "--scale-hours", value, 0.01, 1e6);
    }

    @Option(names = "--storage-hosts", paramLabel = "N",
            description = "storage hosts in the pool [9, 1000] (default ${DEFAULT-VALUE})")
    void storageHosts(int value) {
        storageHosts = OptionChecks.inRange(spec, "--storage-hosts", value, 9, 1000);
    }

    @Option(names = "--storage-scale-hours", paramLabel = "X",
            description = "typical storage-host lifetime scale, hours (same shape as compute hosts) [0.01, 1000000.0] "
                    + "(default ${DEFAULT-VALUE})")
    void storageScaleHours(double value) {
        storageScaleHours = OptionChecks.inRange(spec, "--storage-scale-hours", value, 0.01, 1e6);
    }

    @Option(names = "--checkpoint-seconds", paramLabel = "X", defaultValue = "20.0",
            description = "virtual cost of one checkpoint, V [0.001, 1000000.0] (default ${DEFAULT-VALUE})")
    void checkpointSeconds(double value) {
        checkpointSeconds = OptionChecks.inRange(spec, "--checkpoint-seconds", value, 0.001, 1e6);
    }

    @Option(names = "--download-seconds", paramLabel = "X", defaultValue = "50.0",
            description = "virtual time to fetch a checkpoint, T_d [0.0, 1000000.0] (default ${DEFAULT-VALUE})")
    void downloadSeconds(double value) {
        downloadSeconds = OptionChecks.inRange(spec, "--download-seconds", value, 0.0, 1e6);
    }

    /**
     * The defaults of the storage pool's options, which differ between the commands: a command names its subclass in
     * {@code @Command(defaultValueProvider = ...)}.
     */
    public abstract static class Defaults implements IDefaultValueProvider {
        private final int storageHosts;
        private final double storageScaleHours;

        protected Defaults(int storageHosts, double storageScaleHours) {
            this.storageHosts = storageHosts;
            this.storageScaleHours = storageScaleHours;
        }

        @Override
        public String defaultValue(ArgSpec argument) {
            if (argument instanceof OptionSpec option) {
                return switch (option.longestName()) {
                    case "--storage-hosts" -> Integer.toString(storageHosts);
                    case "--storage-scale-hours" -> Double.toString(storageScaleHours);
                    default -> null;
                };
            }
            return null;
        }
    }

    /**
     * The configuration these options describe.
     *
     * @param processes logical processes
     * @param directory where the repositories live, or in memory
     */
    public Tour.Config config(int processes, Optional<Path> directory) {
        RemdSetup setup = new RemdSetup(processes, 270.0, 340.0, beads, steps, sweeps, seed);
        double scale = scaleHours * 3600;
        LifetimeLaw compute = lifetime.equals("weibull") ? LifetimeLaw.weibull(shape, scale)
                : LifetimeLaw.exponential(scale);
        LifetimeLaw storage = compute.scaled(storageScaleHours * 3600 / scale);
        return new Tour.Config(setup, replicas, stepMinutes * 60, compute, storageHosts, storage, checkpointSeconds,
                downloadSeconds, directory, seed);
    }
}
