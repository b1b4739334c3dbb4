package io.github.volpex.examples.sieve;

import io.github.volpex.examples.cli.Command;
import io.github.volpex.examples.cli.Options;
import io.github.volpex.examples.cli.UsageException;
import io.github.volpex.examples.replication.ReplicationSweep;
import java.io.PrintStream;

/** {@code sieve}: the Sieve of Eratosthenes over the dataspace with 1 to 5 replicas per process. */
public final class SieveCommand implements Command {

    @Override
    public Options options() {
        return Options.forCommand("sieve", "Sieve of Eratosthenes over the dataspace (Kanna et al. Fig. 8): the same "
                        + "run with 1, 2, ... replicas per process; prints time against replication and checks the "
                        + "prime count against a sequential sieve every time.")
                .intOption("processes", 8, 2, 64, "logical processes")
                .longOption("limit", 20_000_000L, 100L, Sieve.MAX_LIMIT, "count the primes up to this number")
                .intOption("max-replicas", 5, 1, 5, "largest replication degree")
                .intOption("repeats", 3, 1, 100, "runs per replication degree (the median time is printed)");
    }

    @Override
    public int run(Options.Parsed options, PrintStream out) throws InterruptedException {
        int processes = options.intValue("processes");
        Sieve sieve = Sieve.upTo(options.longValue("limit"));
        try {
            sieve.requireFeasible(processes);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--" + e.getMessage());
        }
        long expected = sieve.sequentialCount();
        out.printf("Sieve of Eratosthenes up to %,d on %d processes; a sequential sieve counts %,d primes.%n%n",
                options.longValue("limit"), processes, expected);
        boolean correct = ReplicationSweep.run(sieve.program(), processes, options.intValue("max-replicas"),
                options.intValue("repeats"),
                results -> results.get(0) == expected, out);
        out.println();
        out.println(correct ? "verdict: PASS (every run counted " + expected + " primes)"
                : "verdict: FAIL (a run counted wrong)");
        return correct ? 0 : 1;
    }
}
