package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class KaplanMeierTest {

    /**
     * Failures at 1, 3, 3, 6; censored at 2, 5, 6, 8. By hand: S drops by 7/8 at 1 (8 at risk), by 4/6 at 3 (6 at
     * risk: the one censored at 2 has left), by 2/3 at 6 (3 at risk: the one censored at 6 still counts), then stays.
     * Greenwood's sum: 1/(8·7) + 2/(6·4) + 1/(3·2).
     */
    @Test
    void product_limit_and_greenwood_by_hand() {
        LifetimeSample sample = LifetimeSample.of(new double[] {1, 3, 3, 6, 2, 5, 6, 8},
                new boolean[] {true, true, true, true, false, false, false, false});
        KaplanMeier km = KaplanMeier.of(sample);
        assertEquals(1.0, km.survival(0.999));
        assertEquals(7.0 / 8, km.survival(1), 1e-15);
        assertEquals(7.0 / 8, km.survival(2.999), 1e-15);
        assertEquals(7.0 / 12, km.survival(3), 1e-15);
        assertEquals(7.0 / 18, km.survival(6), 1e-15);
        assertEquals(7.0 / 18, km.survival(1e9), 1e-15);
        assertEquals(0.0, km.greenwoodVariance(0.5));
        assertEquals(49.0 / 64 / 56, km.greenwoodVariance(1), 1e-15);
        assertEquals(49.0 / 144 * (1.0 / 56 + 1.0 / 12), km.greenwoodVariance(4), 1e-15);
        assertEquals(49.0 / 324 * (1.0 / 56 + 1.0 / 12 + 1.0 / 6), km.greenwoodVariance(7), 1e-15);
        assertEquals(3, km.stepCount());
        assertArrayEquals(new double[] {1, 3, 6}, km.stepTimesSeconds());
        // Conditional failure is read off the steps: alive at 2, P(fail by 6) = 1 − (7/18)/(7/8).
        assertEquals(1.0 - (7.0 / 18) / (7.0 / 8), km.conditionalFailure(2, 4), 1e-15);
    }

    @Test
    void ends_at_zero_when_the_longest_duration_is_a_failure() {
        KaplanMeier km = KaplanMeier.of(LifetimeSample.ofFailures(5, 10));
        assertEquals(0.0, km.survival(10));
        assertTrue(Double.isNaN(km.greenwoodVariance(10)));
        assertEquals(1.0, km.conditionalFailure(10, 1));
    }

    @Test
    void rejects_empty_samples_and_zero_length_failures() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KaplanMeier.of(LifetimeSample.ofFailures()));
        assertEquals("sample must not be empty: size=0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KaplanMeier.of(LifetimeSample.ofFailures(0, 1)));
        assertThrows(NullPointerException.class, () -> KaplanMeier.of(null));
        // A duration censored at 0 is allowed: it never enters a risk set that matters.
        assertEquals(0.5, KaplanMeier.of(LifetimeSample.of(new double[] {0, 1, 2},
                new boolean[] {false, true, false})).survival(1), 1e-15);
    }

    @Property(tries = 300)
    void without_censoring_it_is_the_empirical_survival_function(
            @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 1, max = 20) Integer> lifetimes,
            @ForAll @DoubleRange(min = 0, max = 25) double t) {
        double[] values = lifetimes.stream().mapToDouble(Integer::doubleValue).toArray();
        KaplanMeier km = KaplanMeier.of(LifetimeSample.ofFailures(values));
        long survivors = lifetimes.stream().filter(life -> life > t).count();
        assertEquals((double) survivors / values.length, km.survival(t), 1e-12);
    }

    @Property(tries = 300)
    void censoring_only_ever_raises_the_estimate_above_the_naive_one(
            @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 1, max = 20) Integer> lifetimes,
            @ForAll @Size(min = 60, max = 60) List<Boolean> failed,
            @ForAll @DoubleRange(min = 0, max = 25) double t) {
        // Treating censored durations as failures (the naive reading) underestimates survival.
        double[] values = lifetimes.stream().mapToDouble(Integer::doubleValue).toArray();
        boolean[] flags = new boolean[values.length];
        for (int i = 0; i < flags.length; i++) {
            flags[i] = failed.get(i);
        }
        double censored = KaplanMeier.of(LifetimeSample.of(values, flags)).survival(t);
        double naive = KaplanMeier.of(LifetimeSample.ofFailures(values)).survival(t);
        assertTrue(censored >= naive - 1e-12, () -> censored + " < " + naive);
    }
}
