package dev.jarvis.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.jarvis.client.HumanAnswer;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisFailure;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code review}: a human answers an agent's Request from the command line. Reads the Request
 * through the {@code request-read} capability ({@link JarvisClient#getRequest}), builds the Review
 * as every human-facing tool does ({@link HumanAnswer#reviewOf}: for an approval the narrowest
 * ApprovalScope, shaped by {@code --max-uses} and {@code --expires-in}), records it ({@link
 * JarvisClient#recordReview}) and prints it as one JSON line.
 *
 * <p>The reviewing Worker is the Request's {@code target_human_worker_id}; the host decides whether
 * the acting Actor may answer for it. An ApprovalScope binds the Request as its own event recorded
 * it ({@code request_revision}, {@code request_event_hash}): that event is found in the
 * WorkSession's log ({@code event-log} capability), since the chain may have moved on since.
 */
@Command(
    name = "review",
    mixinStandardHelpOptions = true,
    description = {
      "Answers an agent's Request as a human: reads it (the host must declare request-read),"
          + " records a Review of it by --actor for the Request's target human Worker, and"
          + " prints the Review as recorded, one JSON line.",
      "--approve and --narrow record an ApprovalScope: exactly the requested action, in the"
          + " WorkSession, for the Actor that asked, within the action's scope_ref, bound to the"
          + " Request's own event (found in the log: the host must declare event-log), used at"
          + " most --max-uses times until --expires-in from now. --deny records no scope.",
      "Exit 0 recorded, 1 the host refused (its error_id and remediation on stderr), 2 usage"
          + " error, host unreachable or without request-read (event-log for an approval)."
    })
final class ReviewCommand implements Callable<Integer> {

  private final CliIo io;

  @Spec CommandSpec spec;

  @Mixin HostOptions host = new HostOptions();

  @Option(
      names = "--work-session",
      required = true,
      paramLabel = "ID",
      description = "the WorkSession the Request belongs to")
  String workSessionId;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Answer answer;

  /** Exactly one of the three. */
  static final class Answer {
    @Option(
        names = "--approve",
        required = true,
        description = "approve the requested action (an ApprovalScope)")
    boolean approve;

    @Option(
        names = "--narrow",
        required = true,
        description =
            "approve within limits, decision narrow: the same ApprovalScope, shaped by"
                + " --max-uses and --expires-in")
    boolean narrow;

    @Option(names = "--deny", required = true, description = "deny it (no ApprovalScope)")
    boolean deny;

    ReviewDecision decision() {
      return approve
          ? ReviewDecision.APPROVE
          : narrow ? ReviewDecision.NARROW : ReviewDecision.DENY;
    }
  }

  @Option(
      names = "--max-uses",
      paramLabel = "N",
      description = "approve/narrow: how many times the action may be performed (default: 1)")
  Optional<Long> maxUses = Optional.empty();

  @Option(
      names = "--expires-in",
      paramLabel = "DURATION",
      converter = ExpiresIn.class,
      description =
          "approve/narrow: how long the approval holds from now (default: 1h; 90s, 20m, 2h or"
              + " ISO-8601 such as PT20M)")
  Optional<Duration> expiresIn = Optional.empty();

  /** {@code --expires-in}: a whole number of seconds, minutes or hours, or ISO-8601. */
  static final class ExpiresIn implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      String text = value.trim();
      try {
        if (text.startsWith("P") || text.startsWith("p")) {
          return Duration.parse(text);
        }
        long amount = Long.parseLong(text.substring(0, text.length() - 1));
        return switch (text.charAt(text.length() - 1)) {
          case 's' -> Duration.ofSeconds(amount);
          case 'm' -> Duration.ofMinutes(amount);
          case 'h' -> Duration.ofHours(amount);
          default -> throw new IllegalArgumentException(value);
        };
      } catch (RuntimeException e) {
        throw new CommandLine.TypeConversionException(
            "expected a duration such as 90s, 20m, 2h or PT20M, got '" + value + "'");
      }
    }
  }

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      description = "why, for the agent and the record (the Review's comments)")
  Optional<String> reason = Optional.empty();

  @Parameters(index = "0", paramLabel = "REQUEST_ID", description = "the Request to answer")
  String requestId;

  ReviewCommand(CliIo io) {
    this.io = io;
  }

  @Override
  public Integer call() throws CliException {
    ReviewDecision decision = answer.decision();
    checkUsage(decision);
    try (JarvisClient client = JarvisClient.create(host.client("review").build())) {
      Request request =
          HostFailures.capability(
              "request-read", () -> client.getRequest(workSessionId, requestId));
      Review review = build(client, request, decision);
      Review recorded = client.recordReview(workSessionId, review);
      io.out().println(JarvisJson.mapper().writeValueAsString(recorded));
      return 0;
    } catch (JarvisRefusalException e) {
      return HostFailures.refused(spec, io, e);
    } catch (JsonProcessingException e) {
      throw new CliException("cannot write the Review: " + e.getOriginalMessage());
    } catch (RuntimeException e) {
      if (e instanceof JarvisFailure) {
        throw new CliException(e.getMessage());
      }
      throw e;
    }
  }

  /** What picocli cannot say about the options: usage errors, exit 2. */
  private void checkUsage(ReviewDecision decision) {
    if (decision == ReviewDecision.DENY && (maxUses.isPresent() || expiresIn.isPresent())) {
      throw usage("--max-uses and --expires-in shape an approval: not with --deny");
    }
    if (maxUses.isPresent() && maxUses.get() < 1) {
      throw usage("--max-uses must be at least 1, got " + maxUses.get());
    }
    if (expiresIn.isPresent() && (expiresIn.get().isNegative() || expiresIn.get().isZero())) {
      throw usage("--expires-in must be a positive duration, got " + expiresIn.get());
    }
    if (reason.isPresent() && reason.get().isBlank()) {
      throw usage("--reason must not be blank");
    }
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  private Review build(JarvisClient client, Request request, ReviewDecision decision)
      throws CliException {
    HumanAnswer answer;
    try {
      answer =
          new HumanAnswer(
              decision,
              reason,
              maxUses.orElse(HumanAnswer.DEFAULT_MAX_USES),
              expiresIn.orElse(HumanAnswer.DEFAULT_EXPIRES_IN));
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
    try {
      return HostFailures.capability("event-log", () -> answer.reviewOf(client, request));
    } catch (IllegalStateException e) {
      throw new CliException(e.getMessage());
    }
  }
}
