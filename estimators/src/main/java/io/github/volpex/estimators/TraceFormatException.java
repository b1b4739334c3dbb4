package io.github.volpex.estimators;

/**
 * A trace file that does not follow its format: an unknown or missing column, a malformed number, an unknown state.
 * The message and the fields say where.
 *
 * @since 0.1
 */
public final class TraceFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The 1-based line number. */
    private final long lineNumber;

    /**
     * Creates the exception.
     *
     * @param lineNumber the 1-based number of the offending line
     * @param problem    what is wrong with it
     */
    public TraceFormatException(long lineNumber, String problem) {
        super("line " + lineNumber + ": " + problem);
        this.lineNumber = lineNumber;
    }

    /**
     * Returns the 1-based number of the offending line.
     *
     * @return the line number
     */
    public long lineNumber() {
        return lineNumber;
    }
}
