package io.github.volpex.examples.reproduce;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * What every experiment is run with: the master seed, the scale (full, or quick for tests and smoke runs), the
 * number of worker threads, and where the optional traces are.
 *
 * @param seed     the master seed; every random stream is derived from it and the cell it drives
 * @param quick    whether to run small parameters (seconds) instead of the full reproduction
 * @param threads  worker threads for independent cells, {@code ≥ 1}
 * @param traceDir the directory holding {@code microsoft99-ping-subset/PingData00.txt}, if any
 */
record Setup(long seed, boolean quick, int threads, Path traceDir) {

    static final String MICROSOFT99 = "microsoft99-ping-subset/PingData00.txt";

    Setup {
        Objects.requireNonNull(traceDir, "traceDir");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
    }

    /** Returns the microsoft99 trace file if it is present. */
    Optional<Path> microsoft99() {
        Path file = traceDir.resolve(MICROSOFT99);
        return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    /** Returns the path where the microsoft99 trace is looked for. */
    Path microsoft99Path() {
        return traceDir.resolve(MICROSOFT99);
    }

    /**
     * Returns an independent random stream for one cell of one experiment: the same (seed, labels) always give the
     * same stream, whatever ran before, so cells can run in any order or in parallel.
     */
    SplittableRandom random(String experiment, long... labels) {
        long h = seed ^ 0x9E3779B97F4A7C15L;
        h = mix(h + experiment.hashCode());
        for (long label : labels) {
            h = mix(h ^ (label + 0x632BE59BD9B4E019L));
        }
        return new SplittableRandom(h);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
