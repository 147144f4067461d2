package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JsonNesting;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.eventlog.EventLogQueryException;
import dev.jarvis.core.exchange.BodyReader;
import dev.jarvis.core.exchange.ProtocolExchange;
import dev.jarvis.core.exchange.RequestBody;
import dev.jarvis.core.exchange.UnreadableBodyException;
import dev.jarvis.core.headers.ActorId;
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
import dev.jarvis.host.ReadQuery;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Checks everything about a request that does not depend on protocol state, in this order: HostAuth
 * (401), the principal may act as the named Actor, protocol headers as the operation class requires
 * them, required capabilities, the query of the paged reads ({@link ReadQuery}), the raw body
 * against the spec, the spec's path/body and actor/body id matches, and the Actor's authority.
 * Nothing is stored, so a refusal changes nothing.
 */
public final class RequestGuard {

  /** Bodies above this are refused unread: no protocol record comes near it. */
  public static final int MAX_BODY_BYTES = 1 << 20;

  /** Bodies nested deeper than this are refused by the parse that would build the tree. */
  public static final int MAX_NESTING_LEVELS = JsonNesting.MAX_LEVELS;

  /** Compiled once: {@code String.replaceAll} would compile it again for every refusal. */
  private static final java.util.regex.Pattern WORD_BOUNDARY =
      java.util.regex.Pattern.compile("([a-z])([A-Z])");

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
   * @param rawQuery the raw query string (without {@code ?}; empty for none), parsed here once
   * @param rawBody the body bytes as they travelled (empty for reads)
   * @throws ProtocolRefusal on the first broken rule
   */
  public ProtocolCall check(
      ProtocolOperation operation,
      Function<String, Optional<String>> headers,
      Map<String, String> pathParameters,
      String rawQuery,
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
    ActorId actorId;
    if (operation.operationClass().isMutation()) {
      MutationHeaders parsed =
          firstRefusal(
              MutationHeaders.parse(
                  operation.operationClass(),
                  headers,
                  config.clock(),
                  config.timestampTolerance()));
      mutation = Optional.of(parsed);
      actorId = parsed.actorId();
    } else {
      actorId = firstRefusal(ReadHeaders.parse(operation.operationClass(), headers)).actorId();
    }
    // The spec lists the header on reads; a mutation that sends it is held to it just the same.
    firstRefusal(RequiredCapabilities.parse(headers.apply(JarvisHeaders.REQUIRED_CAPABILITIES)))
        .flatMap(required -> required.checkSupportedBy(config.capabilities()))
        .ifPresent(
            violation -> {
              throw new ProtocolRefusal(violation);
            });
    ReadQuery query;
    try {
      // A host of the live read takes wait=S, and refuses one out of range wherever it is
      // answered; a host without it ignores the parameter, as every one it does not take.
      query =
          ReadQuery.parse(
              operation, rawQuery, config.capabilities().contains(HostConfig.EVENT_STREAM));
    } catch (EventLogQueryException e) {
      throw new ProtocolRefusal(e.violation());
    }
    RequestBody body = RequestBody.empty();
    if (operation.requestSchema().isPresent()) {
      body = validBody(operation, rawBody);
      checkIdMatch(operation.pathBodyMatch(), pathParameters::get, body.tree());
      String actor = actorId.value();
      checkIdMatch(operation.actorBodyMatch(), header -> actor, body.tree());
    }
    Optional<JsonNode> actor = authority.check(operation, principal, actorId.value(), body.tree());
    ProtocolExchange exchange =
        mutation.isPresent()
            ? ProtocolExchange.of(operation, mutation.get(), pathParameters, body)
            : ProtocolExchange.read(operation, actorId, pathParameters);
    return ProtocolCall.builder(exchange).query(query).actorRecord(actor).build();
  }

  /**
   * The body, read once ({@link BodyReader}: the wire mapping's strictness and the nesting limit in
   * one parse), then checked against the spec on that tree. A body that cannot be read is named
   * exactly as before the one parse: this error path alone reads the bytes again, for the nesting
   * scan's and the validator's own verdict and pointer.
   */
  private RequestBody validBody(ProtocolOperation operation, byte[] rawBody) {
    String schema = operation.requestSchema().orElseThrow();
    if (rawBody.length > MAX_BODY_BYTES) {
      throw refuse(
          ProtocolErrorId.UNKNOWN_STATE,
          schemaObjectType(schema),
          "/",
          "The body is larger than " + MAX_BODY_BYTES + " bytes.",
          "Send a body of at most "
              + MAX_BODY_BYTES
              + " bytes: split the content over several records, or keep large material outside"
              + " the protocol and cite it by reference.");
    }
    RequestBody body;
    try {
      body = BodyReader.read(rawBody);
    } catch (UnreadableBodyException unreadable) {
      if (JsonNesting.tooDeep(rawBody)) {
        throw refuse(
            ProtocolErrorId.UNKNOWN_STATE,
            schemaObjectType(schema),
            "/",
            "The body nests deeper than " + MAX_NESTING_LEVELS + " levels of arrays and objects.",
            "Send the record with at most "
                + MAX_NESTING_LEVELS
                + " levels of nested arrays and objects: flatten deeper structure, or keep it"
                + " outside the protocol and cite it by reference.");
      }
      throw new ProtocolRefusal(firstOf(validator.validate(schema, rawBody), unreadable));
    }
    List<ProtocolViolation> violations = validator.validate(schema, body.tree());
    if (!violations.isEmpty()) {
      throw new ProtocolRefusal(violations.get(0));
    }
    return body;
  }

  private static ProtocolViolation firstOf(
      List<ProtocolViolation> violations, UnreadableBodyException unreadable) {
    if (violations.isEmpty()) {
      // The wire mapping refused what the validator reads: the two disagree, a host defect.
      throw new IllegalStateException(
          "the validator accepts a body the reader refused", unreadable);
    }
    return violations.get(0);
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
    return WORD_BOUNDARY.matcher(schemaName).replaceAll("$1_$2").toLowerCase(java.util.Locale.ROOT);
  }
}
