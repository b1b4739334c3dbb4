package io.github.volpex.checkpoint.placement;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The greedy's optimality gap against the exact optimum on random instances with {@code V ≤ 20}, relative to the
 * optimal expected cost {@code w·N + B·(1 − Π)} (the objective shifted by {@code B} so that it is positive).
 */
class GreedyOptimalityGapTest {

    /**
     * {@link RepositorySelector#greedy()} stays within this gap on the fixed 1000 instances of
     * {@link #distribution_over_1000_instances()} (its worst there is about 6%). It is not a bound on every instance:
     * 20,000 other random instances reach 12.8%, so the property below asserts only what always holds.
     */
    static final double GUARDED_WORST_BOUND = 0.10;
    /** The algorithm as printed stays within this gap on the same fixed instances (its worst there is about 57%). */
    static final double AS_PRINTED_WORST_BOUND = 1.0;

    static double gap(RepositorySelector greedy, SelectionProblem problem) {
        double optimum = Instances.expectedCost(problem, RepositorySelector.exact().select(problem));
        return (Instances.expectedCost(problem, greedy.select(problem)) - optimum) / optimum;
    }

    @Property(tries = 300)
    void the_gap_is_non_negative_and_the_guard_never_hurts(@ForAll long seed) {
        SelectionProblem problem = Instances.problem(seed, 20, 12);
        double guarded = gap(RepositorySelector.greedy(), problem);
        double asPrinted = gap(GreedySelector.AS_PRINTED, problem);
        assertTrue(guarded >= -1e-12, "gap " + guarded);
        assertTrue(asPrinted >= guarded - 1e-12, "gap " + asPrinted + " < " + guarded);
    }

    @Test
    void distribution_over_1000_instances() throws IOException {
        int count = 1000;
        double[] guarded = new double[count];
        double[] asPrinted = new double[count];
        for (int i = 0; i < count; i++) {
            SelectionProblem problem = Instances.problem(0x9E3779B97F4A7C15L * (i + 1), 20, 12);
            guarded[i] = gap(RepositorySelector.greedy(), problem);
            asPrinted[i] = gap(GreedySelector.AS_PRINTED, problem);
        }
        // Ren et al.'s simulation setting: V = 20 hosts, m + k = 9.
        double[] paperGuarded = new double[count];
        double[] paperAsPrinted = new double[count];
        for (int i = 0; i < count; i++) {
            SelectionProblem problem = Instances.problem(0xC2B2AE3D27D4EB4FL * (i + 1), 20, 6, 3);
            paperGuarded[i] = gap(RepositorySelector.greedy(), problem);
            paperAsPrinted[i] = gap(GreedySelector.AS_PRINTED, problem);
        }
        String report = "greedy vs exact, gaps relative to the optimal expected cost w*N + B*(1 - P)\n"
                + count + " random instances, m + k <= V <= 20, m + k <= 12:\n"
                + summary("  greedy() (with the cheapest-set guard)", guarded)
                + summary("  greedy as printed in Ren et al. 4.4", asPrinted)
                + count + " random instances, V = 20, m = 6, k = 3 (the paper's setting):\n"
                + summary("  greedy() (with the cheapest-set guard)", paperGuarded)
                + summary("  greedy as printed in Ren et al. 4.4", paperAsPrinted);
        System.out.print(report);
        Path out = Path.of("target", "placement-greedy-gap.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        assertTrue(guarded[0] >= -1e-12, "the exact solver lost to the greedy: " + guarded[0]);
        assertTrue(guarded[count / 2] <= 1e-12, report);
        assertTrue(guarded[count - 1] <= GUARDED_WORST_BOUND, report);
        assertTrue(asPrinted[count / 2] <= 1e-12, report);
        assertTrue(asPrinted[count - 1] <= AS_PRINTED_WORST_BOUND, report);
        assertTrue(Arrays.stream(guarded).sum() <= Arrays.stream(asPrinted).sum(), report);
        assertTrue(paperGuarded[0] >= -1e-12 && paperGuarded[count / 2] <= 1e-12, report);
        assertTrue(paperGuarded[count - 1] <= GUARDED_WORST_BOUND, report);
        assertTrue(paperAsPrinted[count - 1] <= AS_PRINTED_WORST_BOUND, report);
    }

    /** Sorts {@code gaps} and describes them. */
    private static String summary(String name, double[] gaps) {
        Arrays.sort(gaps);
        int n = gaps.length;
        long optimal = Arrays.stream(gaps).filter(g -> g <= 1e-12).count();
        return String.format(Locale.ROOT, "%s: optimal %d/%d, median %.2e, 90th %.2e, 99th %.2e, worst %.2e, "
                        + "mean %.2e%n", name, optimal, n, gaps[n / 2], gaps[n * 9 / 10], gaps[n * 99 / 100],
                gaps[n - 1], Arrays.stream(gaps).average().orElseThrow());
    }
}
