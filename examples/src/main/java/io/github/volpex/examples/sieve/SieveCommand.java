package io.github.volpex.examples.sieve;

import io.github.volpex.examples.cli.OptionChecks;
import io.github.volpex.examples.cli.Subcommand;
import io.github.volpex.examples.cli.UsageException;
import io.github.volpex.examples.replication.ReplicationSweep;
import io.github.volpex.examples.replication.SweepOptions;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sieve}: the Sieve of Eratosthenes over the dataspace with 1 to 5 replicas per process. */
@Command(name = "sieve", description = "Sieve of Eratosthenes over the dataspace (Kanna et al. Fig. 8): the same run "
        + "with 1, 2, ... replicas per process; prints time against replication and checks the prime count against "
        + "a sequential sieve every time.")
public final class SieveCommand implements Subcommand {

    @Spec
    private CommandSpec spec;

    @Mixin
    private SweepOptions sweep;

    private long limit;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "20000000",
            description = "count the primes up to this number [100, " + Sieve.MAX_LIMIT + "] (default "
                    + "${DEFAULT-VALUE})")
    void limit(long value) {
        limit = OptionChecks.inRange(spec, "--limit", value, 100, Sieve.MAX_LIMIT);
    }

    @Override
    public int run(PrintStream out) throws InterruptedException {
        Sieve sieve = Sieve.upTo(limit);
        try {
            sieve.requireFeasible(sweep.processes());
        } catch (IllegalArgumentException e) {
            throw new UsageException("--" + e.getMessage());
        }
        long expected = sieve.sequentialCount();
        out.printf("Sieve of Eratosthenes up to %,d on %d processes; a sequential sieve counts %,d primes.%n%n",
                limit, sweep.processes(), expected);
        boolean correct = ReplicationSweep.run(sieve.program(), sweep.processes(), sweep.maxReplicas(),
                sweep.repeats(),
                results -> results.get(0) == expected, out);
        out.println();
        out.println(correct ? "verdict: PASS (every run counted " + expected + " primes)"
                : "verdict: FAIL (a run counted wrong)");
        return correct ? 0 : 1;
    }
}
