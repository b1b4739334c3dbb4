package io.github.volpex.examples.psrs;

import io.github.volpex.examples.cli.OptionChecks;
import io.github.volpex.examples.cli.Subcommand;
import io.github.volpex.examples.replication.ReplicationSweep;
import io.github.volpex.examples.replication.SweepOptions;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code psrs}: Parallel Sorting by Regular Sampling over the dataspace with 1 to 5 replicas per process. */
@Command(name = "psrs", description = "Parallel Sorting by Regular Sampling over the dataspace (Kanna et al. Fig. 8): "
        + "the same sort with 1, 2, ... replicas per process; prints time against replication and checks order, "
        + "count and a multiset checksum every time.")
public final class PsrsCommand implements Subcommand {

    @Spec
    private CommandSpec spec;

    @Mixin
    private SweepOptions sweep;

    private long keys;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "seed of the keys ["
            + Long.MIN_VALUE + ", " + Long.MAX_VALUE + "] (default ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--keys", paramLabel = "N", defaultValue = "2097152",
            description = "number of 64-bit keys to sort [1, 268435456] (default ${DEFAULT-VALUE})")
    void keys(long value) {
        keys = OptionChecks.inRange(spec, "--keys", value, 1, 1L << 28);
    }

    @Override
    public int run(PrintStream out) throws InterruptedException {
        Psrs psrs = Psrs.of(keys, seed);
        out.printf("PSRS of %,d random 64-bit keys on %d processes.%n%n", keys, sweep.processes());
        boolean correct = ReplicationSweep.run(psrs.program(), sweep.processes(), sweep.maxReplicas(),
                sweep.repeats(),
                results -> results.get(0).correct() && results.get(0).keys() == keys, out);
        out.println();
        out.println(correct ? "verdict: PASS (every run sorted all " + keys + " keys)"
                : "verdict: FAIL (a run's output was not sorted or not a permutation of its input)");
        return correct ? 0 : 1;
    }
}
