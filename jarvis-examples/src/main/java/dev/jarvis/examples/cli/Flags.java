package dev.jarvis.examples.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code --name value} flags; an unknown flag or a flag without its value is a usage error. */
final class Flags {

  private final Map<String, List<String>> values;

  private Flags(Map<String, List<String>> values) {
    this.values = values;
  }

  static Flags parse(String[] args, String... known) throws CliException {
    Set<String> names = Set.of(known);
    Map<String, List<String>> values = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!names.contains(args[i])) {
        throw new CliException("unknown argument '" + args[i] + "'; known: " + names);
      }
      if (i + 1 >= args.length) {
        throw new CliException(args[i] + " needs a value");
      }
      values.computeIfAbsent(args[i], k -> new ArrayList<>()).add(args[++i]);
    }
    return new Flags(values);
  }

  /** The flag's value; given more than once, the last. */
  Optional<String> get(String name) {
    List<String> all = all(name);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
  }

  String required(String name) throws CliException {
    return get(name).orElseThrow(() -> new CliException(name + " is required"));
  }

  /** Every value of a flag that may repeat, in order. */
  List<String> all(String name) {
    return values.getOrDefault(name, List.of());
  }
}
