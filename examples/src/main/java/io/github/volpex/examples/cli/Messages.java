package io.github.volpex.examples.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.OverwrittenOptionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Picocli's parse errors in the examples' words: one line naming the option and the value ({@code --count must be an
 * integer: many}, {@code unknown option --colour (see demo --help)}). Errors that {@link OptionChecks} raised pass
 * unchanged. Stateless; thread-safe.
 */
final class Messages {

    private Messages() {
    }

    /**
     * Returns the message a parse error is reported with.
     *
     * @param e the error
     * @return one line
     */
    static String of(ParameterException e) {
        CommandSpec command = e.getCommandLine().getCommandSpec();
        if (e instanceof UnmatchedArgumentException unmatched) {
            return unmatched(command, unmatched.getUnmatched());
        }
        if (e instanceof MissingParameterException missing && !missing.getMissing().isEmpty()
                && missing.getMissing().get(0) instanceof OptionSpec option) {
            return option.longestName() + " needs a value " + option.paramLabel();
        }
        if (e instanceof OverwrittenOptionException overwritten
                && overwritten.getOverwritten() instanceof OptionSpec option) {
            return "option " + option.longestName() + " is given twice";
        }
        if (e.getCause() instanceof TypeConversionException && e.getArgSpec() != null) {
            return badValue(e.getArgSpec(), e.getValue());
        }
        return e.getMessage();
    }

    private static String unmatched(CommandSpec command, List<String> arguments) {
        String argument = arguments.isEmpty() ? "" : arguments.get(0);
        if (argument.startsWith("--")) {
            int equals = argument.indexOf('=');
            return "unknown option " + (equals < 0 ? argument : argument.substring(0, equals)) + " (see "
                    + command.name() + " --help)";
        }
        if (!argument.startsWith("-") && !command.positionalParameters().isEmpty()) {
            return "unexpected argument '" + argument + "' (" + command.positionalParameters().get(0).paramLabel()
                    + " is already given)";
        }
        return "unexpected argument '" + argument + "' (options start with --)";
    }

    private static String badValue(ArgSpec arg, String value) {
        String name = arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel();
        Class<?> type = arg.type();
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return name + " must be an integer: " + value;
        }
        if (type == double.class || type == Double.class) {
            return name + " must be a number: " + value;
        }
        if (type == boolean.class || type == Boolean.class) {
            return name + " takes no value: " + name + "=" + value;
        }
        if (type == Path.class) {
            return name + " is not a valid path: " + value;
        }
        return name + " cannot take the value " + value;
    }
}
