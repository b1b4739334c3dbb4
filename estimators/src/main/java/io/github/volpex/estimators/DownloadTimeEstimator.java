package io.github.volpex.estimators;

/**
 * The checkpoint-image download time {@code T_d} (Ni and Harwood, §3.1.3): it starts equal to the checkpoint
 * overhead {@code V}, is replaced by the measured download time of the first checkpoint image, and after that by the
 * download time of the latest restart, so it follows recent network conditions.
 *
 * <p>Thread-safe: every method is atomic.
 *
 * @since 0.1
 */
public final class DownloadTimeEstimator {

    /**
     * Where the current estimate comes from.
     *
     * @since 0.1
     */
    public enum Source {
        /** No download measured yet: {@code T_d = V}. */
        OVERHEAD,
        /** The download of the first checkpoint image. */
        FIRST_IMAGE,
        /** The download of the latest restart. */
        RESTART
    }

    private double seconds;
    private Source source = Source.OVERHEAD;

    private DownloadTimeEstimator(double overheadSeconds) {
        this.seconds = overheadSeconds;
    }

    /**
     * Returns an estimator that starts at the checkpoint overhead.
     *
     * @param overheadSeconds the checkpoint overhead {@code V}, in seconds; finite and {@code ≥ 0}
     * @return a new estimator with {@link Source#OVERHEAD}
     * @throws IllegalArgumentException if {@code overheadSeconds} is negative, NaN or infinite
     */
    public static DownloadTimeEstimator startingAt(double overheadSeconds) {
        return new DownloadTimeEstimator(Checks.finiteNonNegative("overheadSeconds", overheadSeconds));
    }

    /**
     * Updates the overhead {@code V}; it becomes the estimate only while no download has been measured.
     *
     * @param overheadSeconds the new overhead, in seconds; finite and {@code ≥ 0}
     * @throws IllegalArgumentException if {@code overheadSeconds} is negative, NaN or infinite
     */
    public synchronized void updateOverhead(double overheadSeconds) {
        double checked = Checks.finiteNonNegative("overheadSeconds", overheadSeconds);
        if (source == Source.OVERHEAD) {
            seconds = checked;
        }
    }

    /**
     * Records the measured download time of the first checkpoint image. Ignored once a restart's download has been
     * measured (that one is more recent), and once a first image has been recorded.
     *
     * @param downloadSeconds the measured time, in seconds; finite and {@code ≥ 0}
     * @throws IllegalArgumentException if {@code downloadSeconds} is negative, NaN or infinite
     */
    public synchronized void recordFirstImageDownload(double downloadSeconds) {
        double checked = Checks.finiteNonNegative("downloadSeconds", downloadSeconds);
        if (source == Source.OVERHEAD) {
            seconds = checked;
            source = Source.FIRST_IMAGE;
        }
    }

    /**
     * Records the download time measured during a restart; it replaces any earlier estimate.
     *
     * @param downloadSeconds the measured time, in seconds; finite and {@code ≥ 0}
     * @throws IllegalArgumentException if {@code downloadSeconds} is negative, NaN or infinite
     */
    public synchronized void recordRestartDownload(double downloadSeconds) {
        seconds = Checks.finiteNonNegative("downloadSeconds", downloadSeconds);
        source = Source.RESTART;
    }

    /**
     * Returns the current estimate of {@code T_d}.
     *
     * @return the download time, in seconds
     */
    public synchronized double seconds() {
        return seconds;
    }

    /**
     * Returns where the current estimate comes from.
     *
     * @return the source
     */
    public synchronized Source source() {
        return source;
    }

    /**
     * Returns the estimate and its source.
     *
     * @return a summary
     */
    @Override
    public synchronized String toString() {
        return "DownloadTimeEstimator[seconds=" + seconds + ", source=" + source + "]";
    }
}
