/**
 * The examples' command line on picocli. {@link io.github.volpex.examples.cli.Cli} runs the command named, gives each
 * the same {@code --help} and maps what happens to an exit status; each command is a picocli {@code @Command} with
 * typed options that {@link io.github.volpex.examples.cli.OptionChecks} checks as they are parsed, so that an error
 * names the option, the value and the bound ({@code --replicas must be in [1, 5]: 7});
 * {@link io.github.volpex.examples.cli.Messages} puts picocli's own parse errors in the same words.
 */
package io.github.volpex.examples.cli;
