package io.github.volpex.examples.reproduce;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress lines on the terminal: experiment, step, and the estimated time left for this experiment and for the whole
 * run. Estimates come from the wall time per completed unit of work so far; before the first step, from the
 * experiments' own rough estimates. Lines are printed at most about once a second (and at each experiment's end).
 *
 * <p>Thread-safe: workers report concurrently.
 */
final class Progress {

    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private double laterExperimentsSeconds;
    private String experiment = "";
    private long experimentStartNanos;
    private double totalWork;
    private double doneWork;
    private long lastPrintNanos;
    private boolean quiet;

    Progress(PrintStream out) {
        this.out = out;
    }

    /** Returns a progress sink that prints nothing (for tests). */
    static Progress silent() {
        Progress progress = new Progress(System.out);
        progress.quiet = true;
        return progress;
    }

    /** Starts an experiment; {@code laterSeconds} is the estimated wall time of the experiments still to run after it. */
    synchronized void startExperiment(String name, double laterSeconds) {
        experiment = name;
        laterExperimentsSeconds = laterSeconds;
        experimentStartNanos = System.nanoTime();
        totalWork = 0;
        doneWork = 0;
        lastPrintNanos = 0;
        print("[" + name + "] started");
    }

    /** Declares how many units of work the current experiment has in all (may be called again to add more). */
    synchronized void plan(double units) {
        totalWork += units;
    }

    /** Reports {@code units} of work done, described by {@code step}. */
    synchronized void done(double units, String step) {
        doneWork += units;
        long now = System.nanoTime();
        if (now - lastPrintNanos < 1_000_000_000L && doneWork < totalWork) {
            return;
        }
        lastPrintNanos = now;
        double elapsed = (now - experimentStartNanos) / 1e9;
        double left = doneWork > 0 ? elapsed * (totalWork - doneWork) / doneWork : Double.NaN;
        print(String.format(Locale.ROOT, "[%s] %3.0f%%  %s  -  about %s left here, %s in all", experiment,
                totalWork > 0 ? 100 * doneWork / totalWork : 0, step, duration(left),
                duration(left + laterExperimentsSeconds)));
    }

    /** Prints a line as it is (a note, a skipped part). */
    synchronized void say(String line) {
        print("[" + experiment + "] " + line);
    }

    /** Returns seconds since this progress was created. */
    double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
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
