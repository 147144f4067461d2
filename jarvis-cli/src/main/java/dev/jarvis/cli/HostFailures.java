package dev.jarvis.cli;

import dev.jarvis.client.JarvisFailure;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.client.JarvisUnsupportedCapabilityException;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How the subcommands that call a host as one Actor ({@code review}, {@code watch}) say what went
 * wrong there: a refusal is one line on stderr, {@code error_id: remediation (field: reason) [trace
 * …]}, exit 1; a host without a capability the command needs, or unreachable, is a {@link
 * CliException}, exit 2.
 */
final class HostFailures {

  private HostFailures() {}

  /** Runs a read that needs {@code capability}; a host without it is a usage error, exit 2. */
  static <T> T capability(String capability, Supplier<T> read) throws CliException {
    try {
      return read.get();
    } catch (JarvisUnsupportedCapabilityException e) {
      throw unsupported(capability);
    }
  }

  /** The host does not declare {@code capability}: exit 2. */
  static CliException unsupported(String capability) {
    return new CliException("the host does not declare the " + capability + " capability");
  }

  /** Prints the refusal as one line on stderr, after the command's name; exit 1. */
  static int refused(CommandSpec spec, CliIo io, JarvisRefusalException e) {
    io.err().println(spec.qualifiedName() + ": " + refusal(e));
    return 1;
  }

  /**
   * What a failure of a call to the host means for the command: a refusal or an off-spec answer (a
   * broken chain) is printed and exits 1; a host without {@code capability} or any other {@link
   * JarvisFailure} (unreachable) is thrown as a {@link CliException}, exit 2; anything else is
   * rethrown as it is.
   */
  static int failed(CommandSpec spec, CliIo io, Throwable failure, String capability)
      throws CliException {
    if (failure instanceof JarvisUnsupportedCapabilityException) {
      throw unsupported(capability);
    }
    if (failure instanceof JarvisRefusalException refusal) {
      return refused(spec, io, refusal);
    }
    if (failure instanceof JarvisInvalidResponseException offSpec) {
      io.err().println(spec.qualifiedName() + ": " + offSpec.getMessage());
      return 1;
    }
    if (failure instanceof JarvisFailure) {
      throw new CliException(failure.getMessage());
    }
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    throw new CliException(failure.getClass().getSimpleName() + ": " + failure.getMessage());
  }

  /** {@code error_id: remediation (field: reason)}: what the host said, and what to do. */
  static String refusal(JarvisRefusalException e) {
    StringBuilder line = new StringBuilder(e.errorId().getValue());
    String remediation = e.error().getRemediation();
    if (remediation != null && !remediation.isBlank()) {
      line.append(": ").append(remediation);
    }
    line.append(" (").append(e.field()).append(": ").append(e.reason()).append(')');
    e.protocolTraceId().ifPresent(trace -> line.append(" [trace ").append(trace).append(']'));
    return line.toString();
  }
}
