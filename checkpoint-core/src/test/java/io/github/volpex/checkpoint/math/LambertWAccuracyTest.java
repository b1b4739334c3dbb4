package io.github.volpex.checkpoint.math;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.testsupport.SearchDepth;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Accuracy of {@link LambertW} against 60-digit apfloat references, per sub-domain: the committed grid
 * ({@link LambertWReferenceGrid}) and fresh random points on every run. The report (in the Surefire output file of
 * this class) lists the largest error in ulps and the share of correctly rounded results. The random points come
 * from a new seed on every run; a failure names it, and {@code -Dvolpex.lambertw.seed=<seed>} replays that run.
 */
class LambertWAccuracyTest {

    /** The largest error allowed: 1 ulp of W, 2 ulps of 1 + W for the offset entry points. */
    private static double allowedUlps(LambertWSubDomain domain) {
        return domain.function().takesOffset() ? 2.0 : 1.0;
    }

    /** The share of correctly rounded results required in every sub-domain: all of them. */
    private static final double REQUIRED_CORRECTLY_ROUNDED = 1.0;
    /**
     * Random points per sub-domain and run: 100, times the search factor of a deep search. A seed replays the same
     * points (the first ones of a deeper run too).
     */
    private static final int RANDOM_POINTS = SearchDepth.rounds(100);
    /** The system property that replays a run's random points: {@code -Dvolpex.lambertw.seed=<seed>}. */
    static final String SEED_PROPERTY = "volpex.lambertw.seed";

    private static Map<LambertWSubDomain, List<LambertWReferenceGrid.Point>> grid;

    @BeforeAll
    static void loadGrid() {
        grid = LambertWReferenceGrid.load();
    }

    @Test
    void the_committed_grid_covers_every_sub_domain() {
        for (LambertWSubDomain domain : LambertWSubDomain.values()) {
            assertTrue(grid.getOrDefault(domain, List.of()).size() == LambertWReferenceGrid.POINTS_PER_DOMAIN,
                    () -> domain + " has " + grid.getOrDefault(domain, List.of()).size() + " points");
        }
    }

    @Test
    void every_sub_domain_of_the_grid_meets_the_accuracy_targets() {
        Map<LambertWSubDomain, Tally> tallies = new EnumMap<>(LambertWSubDomain.class);
        for (LambertWSubDomain domain : LambertWSubDomain.values()) {
            Tally tally = new Tally(domain);
            for (LambertWReferenceGrid.Point point : grid.get(domain)) {
                tally.add(point.argument(), point.exact());
            }
            tallies.put(domain, tally);
        }
        report("committed grid", tallies);
        tallies.values().forEach(Tally::assertTargets);
    }

    @Test
    void random_points_meet_the_accuracy_targets() {
        long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
        String replay = "seed " + seed + "; replay with -D" + SEED_PROPERTY + "=" + seed;
        SplittableRandom random = new SplittableRandom(seed);
        Map<LambertWSubDomain, Tally> tallies = new EnumMap<>(LambertWSubDomain.class);
        for (LambertWSubDomain domain : LambertWSubDomain.values()) {
            if (domain.enumerated()) {
                continue;
            }
            Tally tally = new Tally(domain);
            for (int i = 0; i < RANDOM_POINTS; i++) {
                double argument = domain.argument(i, random);
                BigDecimal exact;
                try {
                    exact = LambertWReference.exact(domain.function(), argument);
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + " (" + replay + ")", e);
                }
                tally.add(argument, exact);
            }
            tallies.put(domain, tally);
        }
        report("random points, " + replay, tallies);
        for (Tally tally : tallies.values()) {
            assertTrue(tally.maxUlps <= allowedUlps(tally.domain),
                    () -> tally.domain + ": " + tally.maxUlps + " ulps at " + tally.worst + " (" + replay + ")");
            assertTrue(tally.correctlyRounded == tally.points,
                    () -> tally.domain + ": " + tally.correctlyRounded + " of " + tally.points
                            + " correctly rounded, e.g. " + tally.misrounded + " (" + replay + ")");
        }
    }

    private static void report(String title, Map<LambertWSubDomain, Tally> tallies) {
        System.out.println("Lambert W accuracy, " + title);
        System.out.printf("%-22s %-62s %6s %9s %10s%n", "sub-domain", "arguments", "points", "max ulps",
                "correctly rounded");
        for (Tally tally : tallies.values()) {
            System.out.printf("%-22s %-62s %6d %9.3f %9.2f %%%n", tally.domain, tally.domain.description(),
                    tally.points, tally.maxUlps, 100.0 * tally.correctlyRounded / tally.points);
        }
    }

    /** Errors over one sub-domain. */
    private static final class Tally {
        final LambertWSubDomain domain;
        int points;
        int correctlyRounded;
        double maxUlps;
        String worst = "";
        final List<String> misrounded = new ArrayList<>();

        Tally(LambertWSubDomain domain) {
            this.domain = domain;
        }

        void add(double argument, BigDecimal exact) {
            double computed = domain.function().apply(argument);
            double ulps = UlpError.of(computed, exact);
            points++;
            if (UlpError.correctlyRounded(computed, exact)) {
                correctlyRounded++;
            } else if (misrounded.size() < 5) {
                misrounded.add(domain.function() + "(" + argument + ") = " + computed + ", exact " + exact);
            }
            if (ulps > maxUlps || Double.isNaN(ulps)) {
                maxUlps = ulps;
                worst = domain.function() + "(" + argument + ") = " + computed + ", exact " + exact;
            }
        }

        void assertTargets() {
            assertTrue(maxUlps <= allowedUlps(domain), () -> domain + ": " + maxUlps + " ulps at " + worst);
            assertTrue(correctlyRounded >= REQUIRED_CORRECTLY_ROUNDED * points,
                    () -> domain + ": " + correctlyRounded + " of " + points + " correctly rounded, e.g. "
                            + misrounded);
        }
    }
}
