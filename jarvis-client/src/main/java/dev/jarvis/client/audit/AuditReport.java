package dev.jarvis.client.audit;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an audit of a WorkSession's event log found: one {@link Finding} per {@link AuditCheck}, in
 * the order of that enum, and how many events it read. The log passed when no check failed; a check
 * with nothing to judge (no WorkSession read offline, no manifest) is {@link Verdict#SKIPPED},
 * which is no failure.
 *
 * @param workSessionId the WorkSession audited
 * @param eventCount how many events were read
 * @param findings one per check (unmodifiable)
 */
public record AuditReport(String workSessionId, long eventCount, List<Finding> findings) {

  public AuditReport {
    Objects.requireNonNull(workSessionId, "workSessionId");
    findings = List.copyOf(findings);
  }

  /** A check's outcome. */
  public enum Verdict {
    PASSED,
    FAILED,
    SKIPPED
  }

  /**
   * One check's outcome.
   *
   * @param check the check
   * @param verdict passed, failed or skipped
   * @param detail what was compared, or why it failed or was skipped
   * @param index for a failure at an event: its position in the log, 0 for the genesis event
   * @param errorId for a failure: the protocol's {@code error_id} for it
   */
  public record Finding(
      AuditCheck check,
      Verdict verdict,
      String detail,
      OptionalLong index,
      Optional<ProtocolErrorId> errorId) {

    public Finding {
      Objects.requireNonNull(check, "check");
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(detail, "detail");
      Objects.requireNonNull(index, "index");
      Objects.requireNonNull(errorId, "errorId");
    }

    static Finding passed(AuditCheck check, String detail) {
      return new Finding(check, Verdict.PASSED, detail, OptionalLong.empty(), Optional.empty());
    }

    static Finding skipped(AuditCheck check, String detail) {
      return new Finding(check, Verdict.SKIPPED, detail, OptionalLong.empty(), Optional.empty());
    }

    static Finding failed(AuditCheck check, String detail, ProtocolErrorId errorId) {
      return new Finding(check, Verdict.FAILED, detail, OptionalLong.empty(), Optional.of(errorId));
    }

    static Finding failedAt(AuditCheck check, String detail, long index, ProtocolErrorId errorId) {
      return new Finding(
          check, Verdict.FAILED, detail, OptionalLong.of(index), Optional.of(errorId));
    }

    /** The finding as JSON, for machines: {@code check}, {@code verdict}, {@code detail}, ... */
    public ObjectNode toJson() {
      ObjectNode json = JsonNodeFactory.instance.objectNode();
      json.put("check", check.wireName());
      json.put("verdict", verdict.name().toLowerCase(java.util.Locale.ROOT));
      json.put("detail", detail);
      index.ifPresent(i -> json.put("index", i));
      errorId.ifPresent(id -> json.put("error_id", id.getValue()));
      return json;
    }
  }

  /** Whether no check failed. */
  public boolean passed() {
    return findings.stream().noneMatch(f -> f.verdict() == Verdict.FAILED);
  }

  /** The first failed check, in the order of {@link AuditCheck}. */
  public Optional<Finding> firstFailure() {
    return findings.stream().filter(f -> f.verdict() == Verdict.FAILED).findFirst();
  }

  /** The finding of one check. */
  public Finding finding(AuditCheck check) {
    return findings.stream().filter(f -> f.check() == check).findFirst().orElseThrow();
  }

  /** The report as JSON, for machines (the CLI's {@code --json}). */
  public ObjectNode toJson() {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("work_session_id", workSessionId);
    json.put("event_count", eventCount);
    json.put("passed", passed());
    findings.forEach(f -> json.withArray("checks").add(f.toJson()));
    return json;
  }
}
