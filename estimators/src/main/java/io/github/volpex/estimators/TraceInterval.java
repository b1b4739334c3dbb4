package io.github.volpex.estimators;

/**
 * One interval of a node's availability trace: the node was available (up) or unavailable (down) from
 * {@code startSeconds} to {@code endSeconds}.
 *
 * <p>Times are seconds on the trace's own axis: Unix epoch seconds for the Failure Trace Archive format, seconds
 * since the first sample for an hourly availability matrix. The trace may cut an interval at either end:
 * <ul>
 *   <li>{@code censored} (right-censored): the observation ended before the interval did, so its end is not an
 *       event and its true length is at least {@link #durationSeconds()};</li>
 *   <li>{@code leftTruncated}: the interval was already under way when the observation began, so
 *       {@code startSeconds} is the start of the observation, not of the interval. Its end, unless it is also
 *       censored, is a real event (an availability interval that ends is a failure): only how long the interval
 *       had lasted before the observation began is unknown.</li>
 * </ul>
 * An interval that spans the whole observation is both. {@link LifetimeSample#collector()} keeps both flags, and the
 * estimators use them as the package description explains.
 *
 * @param nodeId        the node's identifier in the trace
 * @param available     {@code true} for an availability (up) interval, {@code false} for an unavailability one
 * @param startSeconds  the start, in seconds (the start of the observation if {@code leftTruncated}); finite
 * @param endSeconds    the end, in seconds; finite and {@code ≥ startSeconds}
 * @param censored      {@code true} if the observation ended first, so the end is not an event
 * @param leftTruncated {@code true} if the interval began before the observation did, at an unknown time
 * @since 0.1
 */
public record TraceInterval(long nodeId, boolean available, double startSeconds, double endSeconds,
                            boolean censored, boolean leftTruncated) {

    /**
     * Validates the interval.
     *
     * @param nodeId        the node's identifier in the trace
     * @param available     {@code true} for an availability (up) interval, {@code false} for an unavailability one
     * @param startSeconds  the start, in seconds (the start of the observation if {@code leftTruncated}); finite
     * @param endSeconds    the end, in seconds; finite and {@code ≥ startSeconds}
     * @param censored      {@code true} if the observation ended first, so the end is not an event
     * @param leftTruncated {@code true} if the interval began before the observation did, at an unknown time
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
     * Returns the observed length of the interval.
     *
     * @return {@code endSeconds − startSeconds}, in seconds: the whole interval unless it is censored or
     *         left-truncated, the part observed otherwise
     */
    public double durationSeconds() {
        return endSeconds - startSeconds;
    }
}
