package io.github.volpex.examples.cli;

import java.io.PrintStream;

/**
 * One command of the examples' command line: a picocli {@code @Command} whose options are typed fields, checked as they
 * are parsed (see {@link OptionChecks}), so that {@link #run} starts only with a valid command line.
 */
public interface Subcommand {

    /**
     * Runs the command with the options parsed into this object.
     *
     * @param out where results and progress go
     * @return the exit status: {@link Cli#VERIFIED} when the run verified, {@link Cli#FAILED_VERIFICATION} when a
     *         verification failed
     * @throws UsageException if the options do not fit together (exit status {@link Cli#BAD_COMMAND_LINE})
     * @throws Exception      if the run could not complete (exit status {@link Cli#COULD_NOT_COMPLETE})
     */
    int run(PrintStream out) throws Exception;
}
