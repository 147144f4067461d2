package dev.jarvis.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.raw.RawExchange;
import dev.jarvis.client.raw.RawRequest;
import dev.jarvis.client.raw.RawTransport;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ProtocolError;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.RequestStatus;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The caller's inbox through the host's {@code request-inbox} read ({@code GET /inbox/requests}),
 * with the caller's own {@code Authorization} and {@code Jarvis-Actor-Id}: the host answers only
 * the Requests aimed at that Actor's human Worker, so the console cannot list anyone else's. Sent
 * over the client's raw transport (the client has no call for this read yet), each page judged
 * against the capability's page shape and the spec's {@code Request} before it is used.
 */
final class InboxRead {

  /** What waits for a human: not yet answered, seen or not. */
  static final List<String> OPEN =
      List.of(RequestStatus.PENDING.getValue(), RequestStatus.ACKNOWLEDGED.getValue());

  /** How many open Requests one console lists at most (a page of the read). */
  static final int MOST = RequestInbox.MAX_LIMIT;

  private static final PayloadValidator VALIDATOR = PayloadValidator.forSpec();

  /** What the read came to: a page, or the host's refusal as it answered it. */
  sealed interface Outcome permits Page, Refused, Unsupported {}

  record Page(InboxPage page) implements Outcome {}

  record Refused(int status, JsonNode error) implements Outcome {}

  record Unsupported() implements Outcome {}

  private final URI host;
  private final String authorization;
  private final String actorId;

  InboxRead(URI host, String authorization, String actorId) {
    this.host = host;
    this.authorization = authorization;
    this.actorId = actorId;
  }

  /**
   * The open Requests after {@code after}, waiting up to {@code wait} for one when none follows.
   *
   * @throws IOException if the host cannot be reached or answers no page
   */
  Outcome read(long after, int limit, Duration wait) throws IOException, InterruptedException {
    RequestInbox.Query query =
        new RequestInbox.Query(new LinkedHashSet<>(OPEN), after, limit, wait);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Authorization", authorization);
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actorId);
    headers.put(JarvisHeaders.REQUIRED_CAPABILITIES, RequestInbox.CAPABILITY);
    headers.put("Accept", "application/json");
    RawTransport transport =
        RawTransport.builder()
            .connectTimeout(Duration.ofSeconds(5))
            .requestTimeout(wait.plusSeconds(15))
            .build();
    RawExchange answer =
        transport.send(
            RawRequest.of(
                host,
                RequestInbox.OPERATION,
                Optional.empty(),
                query.query(),
                headers,
                new byte[0]));
    int status = answer.status();
    if (status == 405 || status == 404) {
      return new Unsupported();
    }
    JsonNode body;
    try {
      body = JarvisJson.mapper().readTree(answer.body());
    } catch (IOException e) {
      throw new IOException("the host answered the inbox read " + status + " without JSON");
    }
    if (body == null || !body.isObject()) {
      throw new IOException("the host answered the inbox read " + status + " without an object");
    }
    if (status != 200) {
      if (body != null
          && ProtocolErrorId.UNSUPPORTED_CAPABILITY
              .getValue()
              .equals(body.path(ProtocolError.JSON_PROPERTY_ERROR_ID).asText())) {
        return new Unsupported();
      }
      return new Refused(status, body);
    }
    try {
      return new Page(InboxPage.of(body, VALIDATOR));
    } catch (IllegalArgumentException e) {
      throw new IOException("the host's inbox page is off the protocol: " + e.getMessage());
    }
  }

  /** Every open Request, oldest first (at most {@link #MOST}), and the cursor after the last. */
  Outcome all() throws IOException, InterruptedException {
    return read(0, MOST, Duration.ZERO);
  }
}
