package dev.jarvis.examples.cli;

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
import dev.jarvis.host.ServerOperation;
import dev.jarvis.host.ServerOperations;
import dev.jarvis.testkit.conformance.ConformanceCommand;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code java -jar jarvis-cli.jar [SUBCOMMAND] [ARGS]}: the SDK's command-line tool.
 *
 * <p>Exit codes: 0 success, 1 the input was judged and found wanting (a check failed), 2 the tool
 * could not do its job (bad usage, unreadable or invalid input). Errors are one line on stderr,
 * never a stack trace.
 */
public final class JarvisCli {

  /** One subcommand: runs with its arguments and returns the exit code. */
  interface Command {
    int run(String[] args, InputStream in, PrintStream out, PrintStream err) throws Exception;
  }

  private final Map<String, Command> commands = new LinkedHashMap<>();

  JarvisCli() {
    commands.put("operations", (args, in, out, err) -> operations(out));
    commands.put("demo", (args, in, out, err) -> DemoCommand.run(args, out));
    commands.put("serve", (args, in, out, err) -> ServeCommand.run(args, out));
    commands.put("conformance", (args, in, out, err) -> ConformanceCommand.run(args, out, err));
    commands.put("c14n", JarvisCli::canonicalize);
    commands.put("hash-event", JarvisCli::hashEvent);
    commands.put("hash-action", JarvisCli::hashAction);
    commands.put("verify-chain", JarvisCli::verifyChain);
    commands.put("validate", JarvisCli::validate);
  }

  public static void main(String[] args) {
    System.exit(new JarvisCli().run(args, System.in, System.out, System.err));
  }

  int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    String name = args.length == 0 ? "operations" : args[0];
    Command command = commands.get(name);
    if (command == null) {
      err.println("jarvis-cli: unknown subcommand '" + name + "'; known: " + commands.keySet());
      return 2;
    }
    String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
    try {
      int code = command.run(rest, in, out, err);
      out.flush();
      return code;
    } catch (CliException | CanonicalizationException e) {
      err.println("jarvis-cli " + name + ": " + e.getMessage());
      return 2;
    } catch (Exception e) {
      // Never a stack trace: name what went wrong in one line.
      err.println(
          "jarvis-cli " + name + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
      return 2;
    }
  }

  private static int operations(PrintStream out) {
    out.println("Jarvis protocol v0.1 operations (from the generated server interfaces):");
    for (ServerOperation op : ServerOperations.all()) {
      out.printf("  %-4s %-50s %s%n", op.httpMethod(), op.path(), op.operationId());
    }
    out.printf("%d operations%n", ServerOperations.all().size());
    return 0;
  }

  /** {@code c14n [FILE|-]}: the RFC 8785 canonical bytes, no trailing newline. */
  private static int canonicalize(String[] args, InputStream in, PrintStream out, PrintStream err)
      throws Exception {
    String file = args.length == 0 ? "-" : args[0];
    out.write(JcsCanonicalizer.canonicalize(CliInput.bytes(file, in)));
    return 0;
  }

  /** {@code hash-event FILE}: the event_hash of a JarvisEvent. */
  private static int hashEvent(String[] args, InputStream in, PrintStream out, PrintStream err)
      throws Exception {
    JsonNode event = CliInput.json(CliInput.arg(args, 0, "hash-event FILE"), in);
    if (!event.isObject()) {
      throw new CliException("a JarvisEvent is a JSON object");
    }
    out.println(EventHash.of(event));
    return 0;
  }

  /** {@code hash-action FILE}: the normalized_action_hash of a PolicyActionRequest. */
  private static int hashAction(String[] args, InputStream in, PrintStream out, PrintStream err)
      throws Exception {
    JsonNode action = CliInput.json(CliInput.arg(args, 0, "hash-action FILE"), in);
    if (!action.isObject()) {
      throw new CliException("a PolicyActionRequest is a JSON object");
    }
    out.println(ActionHash.of(action));
    return 0;
  }

  /** {@code verify-chain FILE}: a JSON array of events; 0 when it is one valid chain. */
  private static int verifyChain(String[] args, InputStream in, PrintStream out, PrintStream err)
      throws Exception {
    JsonNode events = CliInput.json(CliInput.arg(args, 0, "verify-chain FILE"), in);
    if (!events.isArray()) {
      throw new CliException("expected a JSON array of JarvisEvents");
    }
    List<JsonNode> list = new ArrayList<>();
    events.forEach(list::add);
    Optional<ChainBreak> broken = EventChain.verify(list);
    if (broken.isEmpty()) {
      out.println("valid chain of " + list.size() + " events");
      return 0;
    }
    ProtocolViolation v = broken.get().violation();
    out.println(
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

  /** {@code validate SCHEMA FILE}: violations as a JSON array of ProtocolErrors; 1 if any. */
  private static int validate(String[] args, InputStream in, PrintStream out, PrintStream err)
      throws Exception {
    String usage = "validate SCHEMA FILE";
    String schema = CliInput.arg(args, 0, usage);
    PayloadValidator validator = PayloadValidator.forSpec();
    if (!validator.schemaNames().contains(schema)) {
      throw new CliException("no schema '" + schema + "' in the spec");
    }
    JsonNode payload = CliInput.json(CliInput.arg(args, 1, usage), in);
    List<ProtocolViolation> violations = validator.validate(schema, payload);
    ArrayNode errors = JarvisJson.mapper().createArrayNode();
    for (int i = 0; i < violations.size(); i++) {
      errors.add(
          JarvisJson.mapper()
              .valueToTree(violations.get(i).toProtocolError("trace:cli-validate-" + (i + 1))));
    }
    out.println(JarvisJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(errors));
    return violations.isEmpty() ? 0 : 1;
  }
}
