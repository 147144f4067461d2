package dev.jarvis.examples.cli;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** {@code --name value} flags; an unknown flag or a flag without its value is a usage error. */
final class Flags {

  private Flags() {}

  static Map<String, String> parse(String[] args, String... known) throws CliException {
    Set<String> names = Set.of(known);
    Map<String, String> flags = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!names.contains(args[i])) {
        throw new CliException("unknown argument '" + args[i] + "'; known: " + names);
      }
      if (i + 1 >= args.length) {
        throw new CliException(args[i] + " needs a value");
      }
      flags.put(args[i], args[++i]);
    }
    return flags;
  }
}
