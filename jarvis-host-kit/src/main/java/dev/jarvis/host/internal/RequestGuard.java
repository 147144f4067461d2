package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JsonNesting;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventLogQueryException;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.MutationHeaders;
import dev.jarvis.core.headers.Parsed;
import dev.jarvis.core.headers.ReadHeaders;
import dev.jarvis.core.headers.RequiredCapabilities;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.Principal;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.model.ProtocolErrorId;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Checks everything about a request that does not depend on protocol state, in this order: HostAuth
 * (401), the principal may act as the named Actor, protocol headers as the operation class requires
 * them, required capabilities, the {@code event-log} read's page, the raw body against the spec,
 * the spec's path/body and actor/body id matches, and the Actor's authority. Nothing is stored, so
 * a refusal changes nothing.
 */
public final class RequestGuard {

  /** Bodies above this are refused unread: no protocol record comes near it. */
  public static final int MAX_BODY_BYTES = 1 << 20;

  /** Bodies nested deeper than this are refused before a tree is built ({@link JsonNesting}). */
  public static final int MAX_NESTING_LEVELS = JsonNesting.MAX_LEVELS;

  private final HostConfig config;
  private final ActorAuthority authority;
  private final PayloadValidator validator = PayloadValidator.forSpec();

  public RequestGuard(HostConfig config, ActorAuthority authority) {
    this.config = config;
    this.authority = authority;
  }

  /**
   * The checked call.
   *
   * @param headers case-insensitive header lookup
   * @param rawBody the body bytes as they travelled (empty for reads)
   * @throws ProtocolRefusal on the first broken rule
   */
  public ProtocolCall check(
      ProtocolOperation operation,
      Function<String, Optional<String>> headers,
      Map<String, String> pathParameters,
      byte[] rawBody) {
    Principal principal =
        config
            .auth()
            .principal(headers.apply("Authorization"))
            .orElseThrow(
                () ->
                    new ProtocolRefusal(
                        ProtocolViolation.hostAuth(
                            headers.apply("Authorization").isEmpty()
                                ? "HostAuth failed: the request carries no Authorization header."
                                : "HostAuth failed: this host does not accept the credential in"
                                    + " Authorization."),
                        401));
    // Before any other header or the body is read: a credential acting as someone else learns
    // nothing more from this host.
    ActorAuthority.checkPrincipal(principal, headers.apply(JarvisHeaders.ACTOR_ID));
    Optional<MutationHeaders> mutation = Optional.empty();
    String actorId;
    if (operation.operationClass().isMutation()) {
      MutationHeaders parsed =
          firstRefusal(
              MutationHeaders.parse(
                  operation.operationClass(),
                  headers,
                  config.clock(),
                  config.timestampTolerance()));
      mutation = Optional.of(parsed);
      actorId = parsed.actorId().value();
      // The generated interfaces bind the revision as an Integer; a larger one would fail in the
      // JAX-RS runtime with no protocol meaning. No WorkSession here gets that far, so it is stale.
      if (parsed.expectedRevision().filter(r -> r.value() > Integer.MAX_VALUE).isPresent()) {
        throw refuse(
            ProtocolErrorId.STALE_WORK_SESSION_REVISION,
            "header",
            JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
            "The expected revision is beyond any revision of this host's WorkSessions.");
      }
    } else {
      actorId =
          firstRefusal(ReadHeaders.parse(operation.operationClass(), headers)).actorId().value();
    }
    // The spec lists the header on reads; a mutation that sends it is held to it just the same.
    firstRefusal(RequiredCapabilities.parse(headers.apply(JarvisHeaders.REQUIRED_CAPABILITIES)))
        .flatMap(required -> required.checkSupportedBy(config.capabilities()))
        .ifPresent(
            violation -> {
              throw new ProtocolRefusal(violation);
            });
    if (operation.equals(EventLog.OPERATION)) {
      try {
        EventLog.request(pathParameters);
      } catch (EventLogQueryException e) {
        throw new ProtocolRefusal(e.violation());
      }
    }
    JsonNode body = MissingNode.getInstance();
    if (operation.requestSchema().isPresent()) {
      body = validBody(operation, rawBody);
      checkIdMatch(operation.pathBodyMatch(), pathParameters::get, body);
      String actor = actorId;
      checkIdMatch(operation.actorBodyMatch(), header -> actor, body);
    }
    Optional<JsonNode> actor = authority.check(operation, principal, actorId, body);
    return new ProtocolCall(
        operation, actorId, pathParameters, mutation, rawBody, body, Optional.empty(), actor);
  }

  private JsonNode validBody(ProtocolOperation operation, byte[] rawBody) {
    String schema = operation.requestSchema().orElseThrow();
    if (rawBody.length > MAX_BODY_BYTES) {
      throw refuse(
          ProtocolErrorId.UNKNOWN_STATE,
          schemaObjectType(schema),
          "/",
          "The body is larger than " + MAX_BODY_BYTES + " bytes.");
    }
    if (JsonNesting.tooDeep(rawBody)) {
      throw refuse(
          ProtocolErrorId.UNKNOWN_STATE,
          schemaObjectType(schema),
          "/",
          "The body nests deeper than " + MAX_NESTING_LEVELS + " levels of arrays and objects.");
    }
    List<ProtocolViolation> violations = validator.validate(schema, rawBody);
    if (!violations.isEmpty()) {
      throw new ProtocolRefusal(violations.get(0));
    }
    try {
      return JarvisJson.mapper().readTree(rawBody);
    } catch (IOException e) {
      // The validator read these bytes already; a mapper that cannot is a host defect, not input.
      throw new IllegalStateException("validated body could not be read", e);
    }
  }

  private static void checkIdMatch(
      Optional<ProtocolOperation.IdMatch> match, Function<String, String> source, JsonNode body) {
    match.ifPresent(
        rule -> {
          String expected = source.apply(rule.source());
          JsonNode actual = body.path(rule.bodyField());
          if (expected == null || !actual.isTextual() || !expected.equals(actual.asText())) {
            throw refuse(
                ProtocolErrorId.fromValue(rule.rejectionId()),
                "request_body",
                "/" + rule.bodyField(),
                rule.bodyField() + " must equal " + rule.source() + ".");
          }
        });
  }

  private static <T> T firstRefusal(Parsed<T> parsed) {
    if (!parsed.isAccepted()) {
      throw new ProtocolRefusal(parsed.violations().get(0));
    }
    return parsed.value().orElseThrow();
  }

  /** {@code PolicyDecision} → {@code policy_decision}. */
  static String schemaObjectType(String schemaName) {
    return schemaName.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
  }
}
