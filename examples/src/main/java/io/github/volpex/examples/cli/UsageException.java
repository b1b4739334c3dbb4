package io.github.volpex.examples.cli;

/** A command line that cannot run: its message says what is wrong and how to fix it. */
public final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the command line
     */
    public UsageException(String message) {
        super(message);
    }
}
