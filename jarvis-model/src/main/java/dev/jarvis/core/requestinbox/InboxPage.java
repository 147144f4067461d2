package dev.jarvis.core.requestinbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.core.validation.internal.PageShape;
import dev.jarvis.model.Request;
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

  private static final PageShape SHAPE =
      new PageShape(
          "jarvis_inbox_page", Set.of(REQUESTS, NEXT_AFTER, HAS_MORE), REQUESTS, "Request");

  public InboxPage {
    requests = List.copyOf(requests);
    if (nextAfter < 0) {
      throw new IllegalArgumentException("nextAfter >= 0");
    }
  }

  /**
   * The Requests bound to the generated {@link Request} record (the trees stay as the host sent
   * them in {@link #requests()}).
   *
   * @throws IllegalArgumentException if one does not bind (a page judged by {@link #of} does)
   */
  public List<Request> records() {
    List<Request> bound = new ArrayList<>();
    for (JsonNode request : requests) {
      try {
        bound.add(JarvisJson.mapper().treeToValue(request, Request.class));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalArgumentException("not a Request: " + e.getOriginalMessage(), e);
      }
    }
    return bound;
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
    return SHAPE.violations(
        body,
        validator,
        (page, found) -> {
          JsonNode next = page.path(NEXT_AFTER);
          if (!next.isIntegralNumber() || !next.canConvertToLong() || next.asLong() < 0) {
            found.add(SHAPE.violation("/" + NEXT_AFTER, NEXT_AFTER + " is an integer from 0"));
          }
        });
  }

  /**
   * The page in {@code body}, judged once.
   *
   * @throws NotAPage if {@link #violations} finds anything
   */
  public static InboxPage of(JsonNode body, PayloadValidator validator) {
    List<ProtocolViolation> found = violations(body, validator);
    if (!found.isEmpty()) {
      throw new NotAPage(found);
    }
    List<JsonNode> requests = new ArrayList<>();
    body.path(REQUESTS).forEach(r -> requests.add(r.deepCopy()));
    return new InboxPage(requests, body.path(NEXT_AFTER).asLong(), body.path(HAS_MORE).asBoolean());
  }

  /** A body that is no inbox page, with what {@link #violations} found (at least one). */
  public static final class NotAPage extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient List<ProtocolViolation> violations;

    NotAPage(List<ProtocolViolation> violations) {
      super("not an inbox page: " + violations.get(0));
      this.violations = List.copyOf(violations);
    }

    /** The first thing that makes the body no page. */
    public ProtocolViolation first() {
      return violations.get(0);
    }
  }
}
