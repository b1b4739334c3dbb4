package io.github.volpex.examples.psrs;

import io.github.volpex.examples.cli.Command;
import io.github.volpex.examples.cli.Options;
import io.github.volpex.examples.replication.ReplicationSweep;
import java.io.PrintStream;

/** {@code psrs}: Parallel Sorting by Regular Sampling over the dataspace with 1 to 5 replicas per process. */
public final class PsrsCommand implements Command {

    @Override
    public Options options() {
        return Options.forCommand("psrs", "Parallel Sorting by Regular Sampling over the dataspace (Kanna et al. "
                        + "Fig. 8): the same sort with 1, 2, ... replicas per process; prints time against replication "
                        + "and checks order, count and a multiset checksum every time.")
                .intOption("processes", 8, 2, 64, "logical processes")
                .longOption("keys", 1L << 21, 1L, 1L << 28, "number of 64-bit keys to sort")
                .intOption("max-replicas", 5, 1, 5, "largest replication degree")
                .intOption("repeats", 3, 1, 100, "runs per replication degree (the median time is printed)")
                .longOption("seed", 1L, Long.MIN_VALUE, Long.MAX_VALUE, "seed of the keys");
    }

    @Override
    public int run(Options.Parsed options, PrintStream out) throws InterruptedException {
        int processes = options.intValue("processes");
        long keys = options.longValue("keys");
        Psrs psrs = Psrs.of(keys, options.longValue("seed"));
        out.printf("PSRS of %,d random 64-bit keys on %d processes.%n%n", keys, processes);
        boolean correct = ReplicationSweep.run(psrs.program(), processes, options.intValue("max-replicas"),
                options.intValue("repeats"),
                results -> results.get(0).correct() && results.get(0).keys() == keys, out);
        out.println();
        out.println(correct ? "verdict: PASS (every run sorted all " + keys + " keys)"
                : "verdict: FAIL (a run's output was not sorted or not a permutation of its input)");
        return correct ? 0 : 1;
    }
}
