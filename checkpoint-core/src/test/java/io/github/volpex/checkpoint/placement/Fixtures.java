package io.github.volpex.checkpoint.placement;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.ArrayList;
import java.util.List;

/** Shared helpers of the random selectors' tests. */
final class Fixtures {

    private Fixtures() {
    }

    /** Pearson's statistic of observed counts against expected counts. */
    static double chiSquare(long[] observed, double[] expected) {
        double sum = 0.0;
        for (int i = 0; i < observed.length; i++) {
            double d = observed[i] - expected[i];
            sum += d * d / expected[i];
        }
        return sum;
    }

    static List<StorageHost> hostsWithCapacities(long... capacities) {
        List<StorageHost> hosts = new ArrayList<>();
        for (int i = 0; i < capacities.length; i++) {
            hosts.add(StorageHost.of("h" + i, 1e6, SurvivalFunction.exponential(1e-5), capacities[i]));
        }
        return hosts;
    }
}
