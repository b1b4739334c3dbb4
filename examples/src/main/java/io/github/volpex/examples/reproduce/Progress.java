package io.github.volpex.examples.reproduce;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress lines on the terminal: experiment, step, and the estimated time left for this experiment and for the whole
 * run. Lines are printed at most about once a second (and at each experiment's end).
 *
 * <p>The estimate of an experiment's whole duration blends its own rough estimate with the pace measured so far,
 * {@code elapsed / fraction done}, the measurement weighing {@code min(1, 4 × fraction done)}: the first cells of an
 * experiment are rarely typical (cheap cells first, or a slow first one while the JIT warms up), so extrapolating from
 * them alone gave wild first estimates; from a quarter of the work on, the measured pace decides. The experiments
 * still to come are scaled by how this one's blended estimate compares with its own.
 *
 * <p>Thread-safe: workers report concurrently.
 */
final class Progress {

    /** The fraction of the work after which the measured pace alone decides. */
    private static final double TRUSTED_FRACTION = 0.25;

    private final PrintStream out;
    private final LongSupplier nanoTime;
    private final long startNanos;
    private double laterExperimentsSeconds;
    private double ownEstimateSeconds;
    private String experiment = "";
    private long experimentStartNanos;
    private double totalWork;
    private double doneWork;
    private long lastPrintNanos;
    private boolean printedOnce;
    private boolean quiet;

    Progress(PrintStream out) {
        this(out, System::nanoTime);
    }

    Progress(PrintStream out, LongSupplier nanoTime) {
        this.out = out;
        this.nanoTime = nanoTime;
        this.startNanos = nanoTime.getAsLong();
    }

    /** Returns a progress sink that prints nothing (for tests). */
    static Progress silent() {
        Progress progress = new Progress(System.out);
        progress.quiet = true;
        return progress;
    }

    /**
     * Starts an experiment: {@code ownSeconds} is its own estimated wall time, {@code laterSeconds} the estimated wall
     * time of the experiments still to run after it.
     */
    synchronized void startExperiment(String name, double ownSeconds, double laterSeconds) {
        experiment = name;
        ownEstimateSeconds = ownSeconds;
        laterExperimentsSeconds = laterSeconds;
        experimentStartNanos = nanoTime.getAsLong();
        totalWork = 0;
        doneWork = 0;
        printedOnce = false;
        print("[" + name + "] started");
    }

    /** Declares how many units of work the current experiment has in all (may be called again to add more). */
    synchronized void plan(double units) {
        totalWork += units;
    }

    /** Reports {@code units} of work done, described by {@code step}. */
    synchronized void done(double units, String step) {
        doneWork += units;
        long now = nanoTime.getAsLong();
        if (printedOnce && now - lastPrintNanos < 1_000_000_000L && doneWork < totalWork) {
            return;
        }
        printedOnce = true;
        lastPrintNanos = now;
        print(String.format(Locale.ROOT, "[%s] %3.0f%%  %s  -  about %s left here, %s in all", experiment,
                totalWork > 0 ? 100 * doneWork / totalWork : 0, step, duration(secondsLeftHere()),
                duration(secondsLeftInAll())));
    }

    /** The estimated whole duration of the current experiment, blending its own estimate and the measured pace. */
    private double estimatedDurationSeconds() {
        double elapsed = (nanoTime.getAsLong() - experimentStartNanos) / 1e9;
        double fraction = totalWork > 0 ? Math.min(1, doneWork / totalWork) : 0;
        if (fraction <= 0) {
            return Math.max(elapsed, ownEstimateSeconds);
        }
        double weight = Math.min(1, fraction / TRUSTED_FRACTION);
        double blended = (1 - weight) * ownEstimateSeconds + weight * (elapsed / fraction);
        return Math.max(elapsed, blended);
    }

    /** The estimated wall time left in the current experiment. */
    synchronized double secondsLeftHere() {
        double elapsed = (nanoTime.getAsLong() - experimentStartNanos) / 1e9;
        return Math.max(0, estimatedDurationSeconds() - elapsed);
    }

    /** The estimated wall time left in the whole run: here, then the later experiments at the pace measured here. */
    synchronized double secondsLeftInAll() {
        double pace = ownEstimateSeconds > 0 ? estimatedDurationSeconds() / ownEstimateSeconds : 1;
        return secondsLeftHere() + laterExperimentsSeconds * Math.max(0.25, Math.min(4, pace));
    }

    /** Prints a line as it is (a note, a skipped part). */
    synchronized void say(String line) {
        print("[" + experiment + "] " + line);
    }

    /** Returns seconds since this progress was created. */
    double elapsedSeconds() {
        return (nanoTime.getAsLong() - startNanos) / 1e9;
    }

    private void print(String line) {
        if (!quiet) {
            out.println(line);
            out.flush();
        }
    }

    static String duration(double seconds) {
        if (!Double.isFinite(seconds)) {
            return "?";
        }
        long s = Math.round(Math.max(0, seconds));
        return s >= 60 ? String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60) : s + " s";
    }
}
