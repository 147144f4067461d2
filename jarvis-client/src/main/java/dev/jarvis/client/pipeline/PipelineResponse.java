package dev.jarvis.client.pipeline;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JsonNesting;
import dev.jarvis.model.ProtocolErrorId;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.util.Objects;
import java.util.Optional;

/**
 * The host's answer on its way back up the pipeline: status, headers and body as received, and,
 * once the answer checks have passed, the protocol record bound from it. Immutable apart from the
 * parse of the body, which happens at most once however many links read it.
 */
public final class PipelineResponse {

  private final PipelineRequest request;
  private final int status;
  private final HttpHeaders headers;
  private final ParsedBody body;
  private final Optional<Object> record;

  private PipelineResponse(
      PipelineRequest request,
      int status,
      HttpHeaders headers,
      ParsedBody body,
      Optional<Object> record) {
    this.request = request;
    this.status = status;
    this.headers = headers;
    this.body = body;
    this.record = record;
  }

  /** An answer to {@code request}, bytes untouched. */
  public static PipelineResponse of(
      PipelineRequest request, int status, HttpHeaders headers, byte[] body) {
    return new PipelineResponse(
        Objects.requireNonNull(request, "request"),
        status,
        Objects.requireNonNull(headers, "headers"),
        new ParsedBody(status, Objects.requireNonNull(body, "body")),
        Optional.empty());
  }

  /** The request of the attempt this answers. */
  public PipelineRequest request() {
    return request;
  }

  /** Attempts the call took to get this answer. */
  public int attempts() {
    return request.attempt();
  }

  public int status() {
    return status;
  }

  public HttpHeaders headers() {
    return headers;
  }

  /** The body exactly as received (a copy). Never log it. */
  public byte[] body() {
    return body.bytes.clone();
  }

  /**
   * The body as JSON, parsed on first use and shared afterwards.
   *
   * @throws JarvisInvalidResponseException the body is empty or not JSON
   */
  public JsonNode json() {
    return body.tree();
  }

  /** The {@code error_id} of a ProtocolError body; empty for any other body. */
  public Optional<ProtocolErrorId> errorId() {
    return body.field("error_id")
        .flatMap(
            id -> {
              try {
                return Optional.of(ProtocolErrorId.fromValue(id));
              } catch (IllegalArgumentException unknown) {
                return Optional.empty();
              }
            });
  }

  /** The {@code trace_id} of a ProtocolError body; empty for any other body. */
  public Optional<String> protocolTraceId() {
    return body.field("trace_id");
  }

  /** The protocol record bound from the body, once the answer checks have accepted it. */
  public Optional<Object> record() {
    return record;
  }

  /** This answer with its bound record. */
  public PipelineResponse withRecord(Object record) {
    return new PipelineResponse(request, status, headers, body, Optional.of(record));
  }

  @Override
  public String toString() {
    return request + " -> " + status;
  }

  /** Times this answer's body was parsed: 0 before any link read it, never more than 1. */
  int parses() {
    return body.parses;
  }

  /**
   * The wire mapping's parser settings (duplicate keys refused, and Jackson's default limits) with
   * the protocol's nesting limit: the one parse of an answer enforces it, no scan before.
   */
  private static final JsonFactory ANSWERS =
      JarvisJson.mapper()
          .getFactory()
          .rebuild()
          .streamReadConstraints(
              StreamReadConstraints.builder().maxNestingDepth(JsonNesting.MAX_LEVELS).build())
          .build();

  /** The body's bytes and their one parse, shared by every copy of the answer. */
  private static final class ParsedBody {
    private final int status;
    private final byte[] bytes;
    private volatile JsonNode tree;
    private volatile JarvisInvalidResponseException failure;

    /** Times the bytes were parsed: at most once (a test holds the client to it). */
    private volatile int parses;

    ParsedBody(int status, byte[] bytes) {
      this.status = status;
      this.bytes = bytes;
    }

    JsonNode tree() {
      JsonNode parsed = tree;
      if (parsed != null) {
        return parsed;
      }
      if (failure == null) {
        parse();
      }
      if (failure != null) {
        throw failure;
      }
      return tree;
    }

    Optional<String> field(String name) {
      if (bytes.length == 0 || bytes[0] != '{' && !Character.isWhitespace(bytes[0])) {
        return Optional.empty();
      }
      if (tree == null && failure == null) {
        parse();
      }
      JsonNode parsed = tree;
      return parsed != null && parsed.path(name).isTextual()
          ? Optional.of(parsed.get(name).asText())
          : Optional.empty();
    }

    private synchronized void parse() {
      if (tree != null || failure != null) {
        return;
      }
      parses++;
      // One parse, the nesting limit enforced by it: the checks that walk the tree recurse, and an
      // answer nested 1,000 levels could overflow the caller's stack.
      try (JsonParser parser = ANSWERS.createParser(bytes)) {
        JsonNode parsed = JarvisJson.mapper().readTree(parser);
        if (parsed == null || parsed.isMissingNode()) {
          failure = new JarvisInvalidResponseException(status, "/", "empty body");
        } else {
          tree = parsed;
        }
      } catch (JacksonException e) {
        failure =
            e instanceof StreamConstraintsException
                    || e.getCause() instanceof StreamConstraintsException
                ? new JarvisInvalidResponseException(
                    status,
                    "/",
                    "the answer nests deeper than " + JsonNesting.MAX_LEVELS + " levels")
                : new JarvisInvalidResponseException(status, "/", e.getOriginalMessage());
      } catch (IOException e) {
        failure = new JarvisInvalidResponseException(status, "/", String.valueOf(e.getMessage()));
      }
    }
  }
}
