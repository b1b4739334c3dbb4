package io.github.volpex.benchmarks.checkpoint;

import io.github.volpex.checkpoint.math.LambertW;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.mariuszgromada.math.mxparser.mathcollection.SpecialFunctions;

/**
 * Accuracy of our Lambert W and of mXparser's on checkpoint-core's committed reference grid, per sub-domain: the
 * largest error in ulps of the exact value and the share of correctly rounded results. For the offset sub-domains
 * mXparser has no offset entry point, so it is given what a caller would form: {@code 1 + W(d − 1/e)}.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar io.github.volpex.benchmarks.checkpoint.LambertWAccuracyReport \
 *     [checkpoint-core/src/test/resources/io/github/volpex/checkpoint/math/lambertw-reference.txt.gz]
 * }</pre>
 */
public final class LambertWAccuracyReport {

    private static final double INV_E = 0.36787944117144233;

    private LambertWAccuracyReport() {
    }

    /** Errors of one implementation over one sub-domain. */
    private static final class Tally {
        int points;
        int correctlyRounded;
        double maxUlps;

        void add(double computed, BigDecimal exact) {
            points++;
            if (Double.compare(computed, exact.doubleValue()) == 0) {
                correctlyRounded++;
            }
            maxUlps = Math.max(maxUlps, ulps(computed, exact));
        }

        String cells() {
            String max = maxUlps == Double.POSITIVE_INFINITY ? "∞ (NaN)"
                    : maxUlps < 1e4 ? String.format("%.3f", maxUlps) : String.format("%.2e", maxUlps);
            return String.format("%s | %.2f %%", max, 100.0 * correctlyRounded / points);
        }
    }

    /**
     * Prints the table.
     *
     * @param args the grid file (optional)
     * @throws IOException if the grid cannot be read
     */
    public static void main(String[] args) throws IOException {
        Path grid = Path.of(args.length > 0 ? args[0]
                : "checkpoint-core/src/test/resources/io/github/volpex/checkpoint/math/lambertw-reference.txt.gz");
        Map<String, Tally[]> tallies = new LinkedHashMap<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(grid)), StandardCharsets.US_ASCII))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.split(" ");
                String domain = fields[0];
                double x = Double.longBitsToDouble(Long.parseUnsignedLong(fields[1], 16));
                BigDecimal exact = new BigDecimal(fields[2]);
                Tally[] pair = tallies.computeIfAbsent(domain, k -> new Tally[] {new Tally(), new Tally()});
                boolean lower = domain.startsWith("WM1") || domain.startsWith("ONE_PLUS_WM1");
                boolean offset = domain.startsWith("ONE_PLUS");
                double ours;
                double theirs;
                if (offset) {
                    ours = lower ? LambertW.onePlusWm1(x) : LambertW.onePlusW0(x);
                    theirs = 1.0 + SpecialFunctions.lambertW(x - INV_E, lower ? -1 : 0);
                } else {
                    ours = lower ? LambertW.wm1(x) : LambertW.w0(x);
                    theirs = SpecialFunctions.lambertW(x, lower ? -1 : 0);
                }
                pair[0].add(ours, exact);
                pair[1].add(theirs, exact);
            }
        }
        System.out.println("| sub-domain | points | ours: max ulps | ours: correctly rounded "
                + "| mXparser: max ulps | mXparser: correctly rounded |");
        System.out.println("|---|---|---|---|---|---|");
        for (Map.Entry<String, Tally[]> entry : tallies.entrySet()) {
            Tally[] pair = entry.getValue();
            System.out.printf("| `%s` | %d | %s | %s |%n", entry.getKey(), pair[0].points, pair[0].cells(),
                    pair[1].cells());
        }
    }

    /** {@code |computed − exact| / ulp(exact)}; +∞ for NaN or infinite results. */
    static double ulps(double computed, BigDecimal exact) {
        if (!Double.isFinite(computed)) {
            return Double.POSITIVE_INFINITY;
        }
        double nearest = exact.doubleValue();
        double ulp = Math.ulp(nearest);
        double magnitude = Math.abs(nearest);
        if (magnitude > Double.MIN_NORMAL && magnitude == Math.scalb(1.0, Math.getExponent(magnitude))
                && exact.abs().compareTo(new BigDecimal(magnitude)) < 0) {
            ulp /= 2;
        }
        return new BigDecimal(computed).subtract(exact).abs()
                .divide(new BigDecimal(ulp), MathContext.DECIMAL64).doubleValue();
    }
}
