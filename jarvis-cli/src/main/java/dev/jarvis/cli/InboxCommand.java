package dev.jarvis.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisFailure;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.eventlog.EventLogQueryException;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code inbox}: the Requests waiting on the calling human, across its WorkSessions, from the
 * command line: {@link JarvisClient#inbox(RequestInbox.Query)} page after page, each Request as the
 * host holds it, one compact JSON line, stdout flushed after each. With {@code --wait}, an inbox
 * that holds none is asked again by long polls until one comes or the wait is over.
 */
@Command(
    name = "inbox",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the Requests that wait on the calling human Actor's Worker, across its WorkSessions"
          + " (the host's request-inbox capability), oldest first, one compact JSON line per"
          + " Request as the host holds it (its work_session_id, status and expires_at among its"
          + " fields). Answer one with: jarvis-cli review REQUEST_ID --work-session WORK_SESSION_ID ...",
      "Exit 0 printed (or nothing waits), 1 the host refused (an agent Actor has no inbox),"
          + " 2 usage error, host unreachable or without request-inbox."
    })
final class InboxCommand implements Callable<Integer> {

  private final CliIo io;

  @Spec CommandSpec spec;

  @Mixin HostOptions host = new HostOptions();

  @Option(
      names = "--status",
      paramLabel = "STATUS[,STATUS...]",
      defaultValue = "pending",
      description =
          "the Request statuses to print, spelled as the spec's RequestStatus (default: pending)")
  String status;

  @Option(
      names = "--after",
      paramLabel = "CURSOR",
      defaultValue = "0",
      description = "print the Requests after this cursor (a page's next_after; default 0)")
  long after;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      converter = ReviewCommand.ExpiresIn.class,
      description =
          "when none waits, wait up to DURATION (90s, 20m, 2h or ISO-8601) for one; default:"
              + " answer at once")
  Optional<Duration> waitFor = Optional.empty();

  InboxCommand(CliIo io) {
    this.io = io;
  }

  @Override
  public Integer call() throws CliException {
    RequestInbox.Query query = query();
    long deadline = System.nanoTime() + waitFor.orElse(Duration.ZERO).toNanos();
    try (JarvisClient client = JarvisClient.create(host.client("inbox").build())) {
      while (true) {
        long left = deadline - System.nanoTime();
        Duration poll =
            Duration.ofSeconds(
                Math.max(0, Math.min(RequestInbox.MAX_WAIT_SECONDS, left / 1_000_000_000L)));
        InboxPage page;
        try {
          page = client.inbox(query.waiting(poll));
        } catch (RuntimeException e) {
          if (e instanceof JarvisFailure) {
            return HostFailures.failed(spec, io, e, RequestInbox.CAPABILITY);
          }
          throw e;
        }
        if (!print(page)) {
          return 0; // stdout's reader is gone (| head)
        }
        query = query.startingAfter(page.nextAfter());
        if (page.hasMore()) {
          continue;
        }
        if (!page.requests().isEmpty() || poll.isZero()) {
          return 0;
        }
      }
    } finally {
      io.out().flush();
    }
  }

  /** Prints the page's Requests; false when stdout's reader is gone. */
  private boolean print(InboxPage page) throws CliException {
    PrintStream out = io.out();
    for (JsonNode request : page.requests()) {
      out.println(line(request));
      out.flush();
      if (out.checkError()) {
        return false;
      }
    }
    return true;
  }

  private static String line(JsonNode request) throws CliException {
    try {
      return JarvisJson.mapper().writeValueAsString(request);
    } catch (JsonProcessingException e) {
      throw new CliException("cannot write a Request: " + e.getOriginalMessage());
    }
  }

  /** The first read, its options checked as the host checks the query: a usage error, exit 2. */
  private RequestInbox.Query query() {
    if (after < 0) {
      throw usage("--after must be 0 or more, got " + after);
    }
    if (waitFor.isPresent() && waitFor.get().isNegative()) {
      throw usage("--wait must not be negative, got " + waitFor.get());
    }
    try {
      Set<String> statuses =
          RequestInbox.parse(
                  RequestInbox.STATUS + "=" + URLEncoder.encode(status, StandardCharsets.UTF_8))
              .statuses();
      return RequestInbox.Query.pending().withStatuses(statuses).startingAfter(after);
    } catch (EventLogQueryException e) {
      throw usage("--status: " + e.violation().reason());
    }
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }
}
