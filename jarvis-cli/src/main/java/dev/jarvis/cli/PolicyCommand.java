package dev.jarvis.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.core.policy.PolicyEvaluation;
import dev.jarvis.core.policy.PolicyEvaluator;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.AgentWorker;
import dev.jarvis.model.AutonomyLevel;
import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.Policy;
import dev.jarvis.model.RiskClass;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code policy explain}: how a Policy judges one action, for the Policy's author. */
@Command(
    name = "policy",
    mixinStandardHelpOptions = true,
    description = "Tools for a Policy's author.",
    subcommands = PolicyCommand.Explain.class)
final class PolicyCommand implements Runnable {

  private final CliIo io;

  PolicyCommand(CliIo io) {
    this.io = io;
  }

  @Override
  public void run() {
    io.err().println("policy: name a subcommand (explain); see policy --help");
  }

  CliIo io() {
    return io;
  }

  /**
   * {@code policy explain --policy FILE --action NAME [--scope REF] [--target REF] --risk CLASS
   * [--data-sensitivity S] [--grant REF]... [--agent-autonomy LEVEL]}: the evaluation every host of
   * this SDK would hold a decision for that action to, with the rule that decided, every rule that
   * matched, and the reasons for the operator and the agent. Nothing is sent anywhere.
   */
  @Command(
      name = "explain",
      mixinStandardHelpOptions = true,
      description = {
        "Prints how a Policy judges one action: the most permissive result it allows, the rule",
        "that decided (a JSON Pointer into the Policy), every rule that matched, and the reasons",
        "for an operator and for the agent. Nothing is sent."
      })
  static final class Explain implements Callable<Integer> {

    @picocli.CommandLine.ParentCommand PolicyCommand parent;

    @Option(
        names = "--policy",
        required = true,
        paramLabel = "FILE",
        description = "a JSON Policy record, or -")
    String policyFile;

    @Option(
        names = "--action",
        required = true,
        paramLabel = "NAME",
        description = "the action's name, exactly")
    String action;

    @Option(
        names = "--scope",
        paramLabel = "REF",
        description = "the action's scope_ref (default: none)")
    String scope;

    @Option(
        names = "--target",
        paramLabel = "REF",
        description = "the action's target_ref (default: none)")
    String target;

    @Option(
        names = "--risk",
        required = true,
        paramLabel = "CLASS",
        description = "the declared risk class: low, medium, high, critical")
    String risk;

    @Option(
        names = "--data-sensitivity",
        paramLabel = "S",
        description = "the declared data sensitivity (default: none)")
    String sensitivity;

    @Option(
        names = "--grant",
        paramLabel = "REF",
        description = "a grant the action uses (repeatable)")
    List<String> grants = new java.util.ArrayList<>();

    @Option(
        names = "--agent-autonomy",
        paramLabel = "LEVEL",
        description = "the AgentWorker's autonomy_level, applied with the Policy's (default: none)")
    String agentAutonomy;

    @Override
    public Integer call() throws CliException {
      CliIo io = parent.io();
      JsonNode json = CliInput.json(policyFile, io.in());
      List<ProtocolViolation> violations = PayloadValidator.forSpec().validate("Policy", json);
      if (!violations.isEmpty()) {
        throw CliException.refused(violations.get(0));
      }
      Policy policy = bind(json);
      RiskClass riskClass = value("--risk", risk, RiskClass::fromValue);
      Optional<DataSensitivity> declared =
          sensitivity == null
              ? Optional.empty()
              : Optional.of(value("--data-sensitivity", sensitivity, DataSensitivity::fromValue));
      PlannedAction planned =
          new PlannedAction(
              ProtocolRecords.action(action, target, scope),
              riskClass,
              declared,
              new LinkedHashSet<>(grants));
      PolicyEvaluator evaluator = PolicyEvaluator.of(policy);
      if (agentAutonomy != null) {
        AutonomyLevel level = value("--agent-autonomy", agentAutonomy, AutonomyLevel::fromValue);
        evaluator = evaluator.forAgent(new AgentWorker().autonomyLevel(level));
      }
      PolicyEvaluation evaluation = evaluator.evaluate(planned);
      io.out().print(evaluation.explain());
      return 0;
    }

    /** An option's value as the spec's enum, or one line naming the option. */
    private static <T> T value(
        String option, String text, java.util.function.Function<String, T> parse)
        throws CliException {
      try {
        return parse.apply(text);
      } catch (IllegalArgumentException e) {
        throw new CliException(option + ": the spec has no value " + text);
      }
    }

    private static Policy bind(JsonNode json) throws CliException {
      try {
        return JarvisJson.mapper().treeToValue(json, Policy.class);
      } catch (JsonProcessingException e) {
        throw new CliException("not a Policy: " + e.getOriginalMessage());
      }
    }
  }
}
