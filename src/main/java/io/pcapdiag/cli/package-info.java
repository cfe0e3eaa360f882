/**
 * The command line: one picocli class per subcommand, shared options in mixins, named exit codes and one
 * error handler that prints a single line (a stack trace only with -v).
 */
package io.pcapdiag.cli;
