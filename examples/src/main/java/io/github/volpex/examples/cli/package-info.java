/**
 * Command-line handling shared by every example: declared options, validation with clear messages, {@code --help}.
 */
package io.github.volpex.examples.cli;
