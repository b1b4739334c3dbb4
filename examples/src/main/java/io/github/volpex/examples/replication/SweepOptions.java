package io.github.volpex.examples.replication;

import io.github.volpex.examples.cli.OptionChecks;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options of a {@link ReplicationSweep} that every job's command takes: the logical processes, the largest
 * replication degree and the runs per degree. A picocli mixin; each value is checked as it is parsed.
 */
public final class SweepOptions {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    private int processes;
    private int maxReplicas;
    private int repeats;

    /** Creates the options, for picocli. */
    public SweepOptions() {
    }

    @Option(names = "--processes", paramLabel = "N", defaultValue = "8",
            description = "logical processes [2, 64] (default ${DEFAULT-VALUE})")
    void processes(int value) {
        processes = OptionChecks.inRange(spec, "--processes", value, 2, 64);
    }

    @Option(names = "--max-replicas", paramLabel = "N", defaultValue = "5",
            description = "largest replication degree [1, 5] (default ${DEFAULT-VALUE})")
    void maxReplicas(int value) {
        maxReplicas = OptionChecks.inRange(spec, "--max-replicas", value, 1, 5);
    }

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "3",
            description = "runs per replication degree (the median time is printed) [1, 100] (default "
                    + "${DEFAULT-VALUE})")
    void repeats(int value) {
        repeats = OptionChecks.inRange(spec, "--repeats", value, 1, 100);
    }

    /**
     * Returns the number of logical processes.
     *
     * @return the processes, in [2, 64]
     */
    public int processes() {
        return processes;
    }

    /**
     * Returns the largest replication degree the sweep runs.
     *
     * @return the degree, in [1, 5]
     */
    public int maxReplicas() {
        return maxReplicas;
    }

    /**
     * Returns the runs per replication degree.
     *
     * @return the runs, in [1, 100]
     */
    public int repeats() {
        return repeats;
    }
}
