package io.github.volpex.examples.cli;

import java.io.PrintStream;

/** One command of the examples' command line. */
public interface Command {

    /**
     * Returns the options the command accepts, with its name and summary.
     *
     * @return the options
     */
    Options options();

    /**
     * Runs the command.
     *
     * @param options the parsed command line
     * @param out     where results and progress go
     * @return the exit status: 0 when the run verified, 1 when a verification failed
     * @throws Exception if the run could not complete
     */
    int run(Options.Parsed options, PrintStream out) throws Exception;
}
