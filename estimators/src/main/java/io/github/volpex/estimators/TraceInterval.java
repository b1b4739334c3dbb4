package io.github.volpex.estimators;

/**
 * One interval of a node's availability trace: the node was available (up) or unavailable (down) from
 * {@code startSeconds} to {@code endSeconds}.
 *
 * <p>Times are seconds on the trace's own axis: Unix epoch seconds for the Failure Trace Archive format, seconds
 * since the first sample for an hourly availability matrix. An interval is {@code censored} when the trace does not
 * show its end (or its start): its true length is at least {@link #durationSeconds()}.
 *
 * @param nodeId       the node's identifier in the trace
 * @param available    {@code true} for an availability (up) interval, {@code false} for an unavailability one
 * @param startSeconds the start, in seconds; finite
 * @param endSeconds   the end, in seconds; finite and {@code ≥ startSeconds}
 * @param censored     {@code true} if the trace cuts the interval short, so its length is a lower bound
 * @since 0.1
 */
public record TraceInterval(long nodeId, boolean available, double startSeconds, double endSeconds,
                            boolean censored) {

    /**
     * Validates the interval.
     *
     * @param nodeId       the node's identifier in the trace
     * @param available    {@code true} for an availability (up) interval, {@code false} for an unavailability one
     * @param startSeconds the start, in seconds; finite
     * @param endSeconds   the end, in seconds; finite and {@code ≥ startSeconds}
     * @param censored     {@code true} if the trace cuts the interval short, so its length is a lower bound
     * @throws IllegalArgumentException if a time is NaN or infinite, or {@code endSeconds < startSeconds}
     */
    public TraceInterval {
        Checks.finite("startSeconds", startSeconds);
        Checks.finite("endSeconds", endSeconds);
        if (endSeconds < startSeconds) {
            throw new IllegalArgumentException("endSeconds must be >= startSeconds (" + startSeconds + "): "
                    + endSeconds);
        }
    }

    /**
     * Returns the length of the interval.
     *
     * @return {@code endSeconds − startSeconds}, in seconds
     */
    public double durationSeconds() {
        return endSeconds - startSeconds;
    }
}
