package dev.jarvis.core.requestinbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ProtocolErrorId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One page of a human's inbox, as the {@code request-inbox} capability answers it: {@code
 * {"requests": [Request...], "next_after": N, "has_more": true|false}}, nothing else. Each Request
 * is the spec's record exactly as the host holds it now (its {@code work_session_id}, {@code
 * status} and {@code expires_at} among its fields). {@code next_after} is the cursor of the page's
 * last Request (the query's {@code after} on an empty page): the next page, or a long poll for new
 * Requests, asks after it. {@code has_more} is whether Requests of the asked statuses follow.
 *
 * @param requests the Requests, in the host's write order (unmodifiable)
 * @param nextAfter the cursor to ask after next
 * @param hasMore whether more follow
 */
public record InboxPage(List<JsonNode> requests, long nextAfter, boolean hasMore) {

  /** The page's fields. */
  public static final String REQUESTS = "requests";

  /** The page's fields. */
  public static final String NEXT_AFTER = "next_after";

  /** The page's fields. */
  public static final String HAS_MORE = "has_more";

  private static final Set<String> FIELDS = Set.of(REQUESTS, NEXT_AFTER, HAS_MORE);

  public InboxPage {
    requests = List.copyOf(requests);
    if (nextAfter < 0) {
      throw new IllegalArgumentException("nextAfter >= 0");
    }
  }

  /** The page's JSON body. */
  public ObjectNode toJson() {
    ObjectNode page = JsonNodeFactory.instance.objectNode();
    ArrayNode array = page.putArray(REQUESTS);
    requests.forEach(array::add);
    page.put(NEXT_AFTER, nextAfter);
    page.put(HAS_MORE, hasMore);
    return page;
  }

  /**
   * What makes {@code body} no page: a field missing, of the wrong type or unknown, a negative
   * cursor, or a Request that is no valid {@code Request} by the spec; empty when it is a page.
   */
  public static List<ProtocolViolation> violations(JsonNode body, PayloadValidator validator) {
    List<ProtocolViolation> found = new ArrayList<>();
    if (!body.isObject()) {
      found.add(violation("/", "a page is a JSON object"));
      return found;
    }
    body.fieldNames()
        .forEachRemaining(
            name -> {
              if (!FIELDS.contains(name)) {
                found.add(violation("/" + name, "a page has no field " + name));
              }
            });
    JsonNode next = body.path(NEXT_AFTER);
    if (!next.isIntegralNumber() || !next.canConvertToLong() || next.asLong() < 0) {
      found.add(violation("/" + NEXT_AFTER, NEXT_AFTER + " is an integer from 0"));
    }
    if (!body.path(HAS_MORE).isBoolean()) {
      found.add(violation("/" + HAS_MORE, HAS_MORE + " is a boolean"));
    }
    JsonNode requests = body.path(REQUESTS);
    if (!requests.isArray()) {
      found.add(violation("/" + REQUESTS, REQUESTS + " is an array"));
      return found;
    }
    for (int i = 0; i < requests.size(); i++) {
      for (ProtocolViolation v : validator.validate("Request", requests.get(i))) {
        found.add(
            ProtocolViolation.of(
                v.errorId(), OBJECT_TYPE, "/" + REQUESTS + "/" + i + v.field(), v.reason()));
      }
    }
    return found;
  }

  /**
   * The page in {@code body}, judged once.
   *
   * @throws IllegalArgumentException if {@link #violations} finds anything (its message the first)
   */
  public static InboxPage of(JsonNode body, PayloadValidator validator) {
    List<ProtocolViolation> found = violations(body, validator);
    if (!found.isEmpty()) {
      throw new IllegalArgumentException("not an inbox page: " + found.get(0));
    }
    List<JsonNode> requests = new ArrayList<>();
    body.path(REQUESTS).forEach(r -> requests.add(r.deepCopy()));
    return new InboxPage(requests, body.path(NEXT_AFTER).asLong(), body.path(HAS_MORE).asBoolean());
  }

  private static final String OBJECT_TYPE = "jarvis_inbox_page";

  private static ProtocolViolation violation(String field, String reason) {
    return ProtocolViolation.of(ProtocolErrorId.UNKNOWN_STATE, OBJECT_TYPE, field, reason);
  }
}
