package dev.jarvis.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.canonical.JcsCanonicalizer;
import dev.jarvis.core.chain.ChainBreak;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.hash.EventHash;
import dev.jarvis.core.validation.PayloadValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** The protocol core's tools on files: canonical bytes, hashes, chains, schema validation. */
final class ProtocolTools {

  private ProtocolTools() {}

  /** {@code c14n [FILE|-]}: the RFC 8785 canonical bytes, no trailing newline. */
  @Command(
      name = "c14n",
      mixinStandardHelpOptions = true,
      description = "Writes the RFC 8785 canonical bytes of a JSON file (no trailing newline).")
  static final class Canonicalize implements Callable<Integer> {
    private final CliIo io;

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "a JSON file, or - (default)")
    String file = "-";

    Canonicalize(CliIo io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      byte[] canonical;
      try {
        canonical = JcsCanonicalizer.canonicalize(CliInput.bytes(file, io.in()));
      } catch (CanonicalizationException e) {
        throw CliException.refused(e.toViolation("json"));
      }
      io.out().write(canonical);
      return 0;
    }
  }

  /** {@code hash-event FILE}: the event_hash of a JarvisEvent. */
  @Command(
      name = "hash-event",
      mixinStandardHelpOptions = true,
      description = "Prints a JarvisEvent's event_hash.")
  static final class HashEvent implements Callable<Integer> {
    private final CliIo io;

    @Parameters(paramLabel = "FILE", description = "a JarvisEvent, or - for stdin")
    String file;

    HashEvent(CliIo io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      io.out().println(hashOfObject(file, io, "JarvisEvent", "jarvis_event", EventHash::of));
      return 0;
    }
  }

  /** {@code hash-action FILE}: the normalized_action_hash of a PolicyActionRequest. */
  @Command(
      name = "hash-action",
      mixinStandardHelpOptions = true,
      description = "Prints a PolicyActionRequest's normalized_action_hash.")
  static final class HashAction implements Callable<Integer> {
    private final CliIo io;

    @Parameters(paramLabel = "FILE", description = "a PolicyActionRequest, or - for stdin")
    String file;

    HashAction(CliIo io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      io.out()
          .println(
              hashOfObject(
                  file, io, "PolicyActionRequest", "policy_action_request", ActionHash::of));
      return 0;
    }
  }

  /**
   * The hash of a JSON object read from {@code file}; text the canonical form cannot carry is
   * refused by its error_id and field, as a host would refuse it.
   */
  private static String hashOfObject(
      String file,
      CliIo io,
      String schema,
      String objectType,
      java.util.function.Function<JsonNode, String> hash)
      throws CliException {
    JsonNode object = CliInput.json(file, io.in());
    if (!object.isObject()) {
      throw new CliException("a " + schema + " is a JSON object");
    }
    try {
      return hash.apply(object);
    } catch (CanonicalizationException e) {
      throw CliException.refused(e.toViolation(objectType));
    }
  }

  /** {@code verify-chain FILE}: a JSON array of events; 0 when it is one valid chain. */
  @Command(
      name = "verify-chain",
      mixinStandardHelpOptions = true,
      description = {
        "Verifies a JSON array of events from genesis.",
        "Names the first broken index and its error_id; exit 1 when broken."
      })
  static final class VerifyChain implements Callable<Integer> {
    private final CliIo io;

    @Parameters(paramLabel = "FILE", description = "a JSON array of JarvisEvents, or -")
    String file;

    VerifyChain(CliIo io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      JsonNode events = CliInput.json(file, io.in());
      if (!events.isArray()) {
        throw new CliException("expected a JSON array of JarvisEvents");
      }
      List<JsonNode> list = new ArrayList<>();
      events.forEach(list::add);
      Optional<ChainBreak> broken = EventChain.verify(list);
      if (broken.isEmpty()) {
        io.out().println("valid chain of " + list.size() + " events");
        return 0;
      }
      ProtocolViolation v = broken.get().violation();
      io.out()
          .println(
              "broken at index "
                  + broken.get().index()
                  + ": "
                  + v.errorId().getValue()
                  + " at "
                  + v.field()
                  + ": "
                  + v.reason());
      return 1;
    }
  }

  /** {@code validate SCHEMA FILE}: violations as a JSON array of ProtocolErrors; 1 if any. */
  @Command(
      name = "validate",
      mixinStandardHelpOptions = true,
      description = {
        "Validates a JSON file against a schema of the spec.",
        "Prints the violations as a JSON array of ProtocolErrors; exit 1 when there are some."
      })
  static final class Validate implements Callable<Integer> {
    private final CliIo io;

    @Parameters(index = "0", paramLabel = "SCHEMA", description = "a schema name, e.g. Request")
    String schema;

    @Parameters(index = "1", paramLabel = "FILE", description = "a JSON file, or -")
    String file;

    Validate(CliIo io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      PayloadValidator validator = PayloadValidator.forSpec();
      if (!validator.schemaNames().contains(schema)) {
        throw new CliException("no schema '" + schema + "' in the spec");
      }
      // The raw bytes, not a tree: duplicate keys and escaped lone surrogates are violations to
      // print, not unreadable input.
      List<ProtocolViolation> violations =
          validator.validate(schema, CliInput.bytes(file, io.in()));
      ArrayNode errors = JarvisJson.mapper().createArrayNode();
      for (int i = 0; i < violations.size(); i++) {
        errors.add(
            JarvisJson.mapper()
                .valueToTree(violations.get(i).toProtocolError("trace:cli-validate-" + (i + 1))));
      }
      io.out()
          .println(JarvisJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(errors));
      return violations.isEmpty() ? 0 : 1;
    }
  }
}
