package dev.jarvis.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.JarvisFailure;
import dev.jarvis.client.JarvisUnsupportedCapabilityException;
import dev.jarvis.client.audit.AuditReport;
import dev.jarvis.client.audit.EventLogAudit;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.model.EvidenceManifest;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code audit}: checks a WorkSession's event log from outside its host, online through the {@code
 * event-log} capability ({@link JarvisClient#audit}) or offline from files ({@link EventLogAudit}),
 * and prints a verdict per check.
 */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    description = {
      "Audits a WorkSession's event log: every event re-hashed from genesis and linked, the"
          + " last event against the WorkSession's revision and last_event_hash (online), and"
          + " against an EvidenceManifest's event_chain_root and source_event_refs (--manifest),"
          + " and every signed event's actor_signature (--actor-keys).",
      "Online: --base-url URL --token T --actor ID WORK_SESSION_ID (the host must declare"
          + " event-log; the Actor must be a member). Offline: --events FILE [--manifest FILE],"
          + " FILE a JSON array of JarvisEvents or an event-log page, - for standard input.",
      "Exit 0 every check passed, 1 a check failed, 2 usage error, host unreachable or without"
          + " event-log."
    })
final class AuditCommand implements Callable<Integer> {

  private final CliIo io;

  /** Online: the host and the Actor to read as, a member of the WorkSession. */
  @Mixin HostOptions host = new HostOptions();

  @Option(names = "--events", paramLabel = "FILE", description = "offline: the events")
  Optional<String> events;

  @Option(
      names = "--manifest",
      paramLabel = "FILE",
      description = "the WorkSession's exported EvidenceManifest")
  Optional<String> manifest;

  @Option(
      names = "--actor-keys",
      paramLabel = "FILE",
      description =
          "verify every signed event with the Actors' public keys (online and offline); "
              + ActorKeysFile.DESCRIPTION)
  Optional<Path> actorKeys = Optional.empty();

  @Option(names = "--json", description = "print the report as JSON")
  boolean json;

  @Parameters(
      arity = "0..1",
      paramLabel = "WORK_SESSION_ID",
      description = "online: the WorkSession to audit")
  Optional<String> workSessionId;

  AuditCommand(CliIo io) {
    this.io = io;
  }

  @Override
  public Integer call() throws Exception {
    AuditReport report = events.isPresent() ? offline() : online();
    print(report);
    return report.passed() ? 0 : 1;
  }

  private AuditReport online() throws CliException {
    if (!host.allGiven() || workSessionId.isEmpty()) {
      throw new CliException(
          "give --base-url, --token, --actor and WORK_SESSION_ID (online) or --events (offline)");
    }
    Optional<EvidenceManifest> exported = Optional.empty();
    if (manifest.isPresent()) {
      exported =
          Optional.of(
              bind(CliInput.json(manifest.get(), io.in()), EvidenceManifest.class, manifest.get()));
    }
    JarvisClientOptions.Builder options = host.client("audit");
    ActorKeysFile.read(actorKeys).ifPresent(options::actorKeys);
    try (JarvisClient client = JarvisClient.create(options.build())) {
      return exported.isPresent()
          ? client.audit(workSessionId.get(), exported.get())
          : client.audit(workSessionId.get());
    } catch (JarvisUnsupportedCapabilityException e) {
      throw new CliException(
          "the host does not declare the event-log capability; audit an export offline with"
              + " --events");
    } catch (RuntimeException e) {
      if (e instanceof JarvisFailure) {
        throw new CliException(e.getMessage());
      }
      throw e;
    }
  }

  private AuditReport offline() throws CliException {
    if (workSessionId.isPresent() || host.baseUrl.isPresent() || host.token.isPresent()) {
      throw new CliException("--events audits files: give no host and no WORK_SESSION_ID");
    }
    JsonNode read = CliInput.json(events.get(), io.in());
    JsonNode list = read.isObject() ? read.path("events") : read;
    if (!list.isArray()) {
      throw new CliException(
          events.get() + ": expected a JSON array of JarvisEvents or an event-log page");
    }
    Optional<JsonNode> exported =
        manifest.isPresent()
            ? Optional.of(CliInput.json(manifest.get(), io.in()))
            : Optional.empty();
    // The manifest names the WorkSession; without one, the log's first event does.
    String id =
        exported
            .map(m -> m.path("work_session_id").asText())
            .or(() -> Optional.ofNullable(list.path(0).path("work_session_id").textValue()))
            .orElse(read.path("work_session_id").asText());
    EventLogAudit audit =
        new EventLogAudit(id, exported.isPresent(), ActorKeysFile.read(actorKeys));
    list.forEach(audit::accept);
    return audit.report(Optional.empty(), exported);
  }

  private static <T> T bind(JsonNode tree, Class<T> type, String file) throws CliException {
    try {
      return JarvisJson.mapper().treeToValue(tree, type);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new CliException(file + ": not an EvidenceManifest: " + e.getOriginalMessage());
    }
  }

  private void print(AuditReport report) throws CliException {
    PrintStream out = io.out();
    if (json) {
      try {
        out.println(
            JarvisJson.mapper()
                .writerWithDefaultPrettyPrinter()
                .writeValueAsString(report.toJson()));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new CliException("cannot write the report: " + e.getOriginalMessage());
      }
      return;
    }
    text(out, report);
  }

  /** The report as text: a line per check, the first failure, the verdict. */
  static void text(PrintStream out, AuditReport report) {
    out.println(
        "Audit of WorkSession " + report.workSessionId() + ": " + report.eventCount() + " events");
    for (AuditReport.Finding f : report.findings()) {
      String verdict =
          switch (f.verdict()) {
            case PASSED -> "PASS";
            case FAILED -> "FAIL";
            case SKIPPED -> "SKIP";
          };
      out.printf(Locale.ROOT, "  %s %-16s %s%n", verdict, f.check().wireName(), f.detail());
    }
    report
        .firstFailure()
        .ifPresent(
            f ->
                out.println(
                    "First failure: "
                        + f.check().wireName()
                        + f.index().stream().mapToObj(i -> " at index " + i).findFirst().orElse("")
                        + f.errorId().map(id -> " (" + id.getValue() + ")").orElse("")));
    out.println("Verdict: " + (report.passed() ? "PASSED" : "FAILED"));
  }
}
