package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.StoredSession;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing through HTTP: valid {@code appendJarvisEvent}, {@code recordPolicyDecision} and {@code
 * recordContribution} requests, each mutated in one field or header, against the reference host.
 * Properties: never a 5xx; every refusal a spec-valid {@code ProtocolError}; a refusal changes
 * nothing; an accepted request leaves a chain that verifies.
 *
 * <p>Seeded: {@code -Djarvis.fuzz.seed=N -Djarvis.fuzz.cases=N} replays or lengthens a run (the
 * long run's command is in {@code docs/reliability.md}).
 */
class MutatedRequestsTest {

  private static final long SEED = Long.getLong("jarvis.fuzz.seed", 20261201L);
  private static final int CASES = Integer.getInteger("jarvis.fuzz.cases", 2000);
  private static final String[] OPERATIONS = {"events", "policy-decisions", "contributions"};

  /** How a valid request is spoiled. */
  enum Mutation {
    NONE,
    REMOVED_FIELD,
    RETYPED_FIELD,
    OVERSIZED_STRING,
    DEEP_NESTING,
    DUPLICATED_KEY,
    TRUNCATED_JSON,
    STRAY_BYTES,
    LONE_SURROGATE,
    JUNK_HEADER,
    REMOVED_HEADER
  }

  /** Thousands of refusals would drown the build log; held so the level sticks. */
  private static final Logger REQUEST_LOG = Logger.getLogger("dev.jarvis.host.reference.requests");

  private static final String SURROGATE_MARK = "lone-surrogate-goes-here";
  private static final String NESTING_MARK = "deep-nesting-goes-here";

  private final PayloadValidator validator = PayloadValidator.forSpec();
  private final Random random = new Random(SEED);
  private final Map<Mutation, int[]> outcomes = new EnumMap<>(Mutation.class);
  private TestHost t;
  private String genesisEventId;

  @BeforeEach
  void start() {
    REQUEST_LOG.setLevel(Level.WARNING);
    t = TestHost.withSession();
    genesisEventId = events().get(0).path("id").asText();
  }

  @AfterEach
  void stop() {
    t.close();
    REQUEST_LOG.setLevel(null);
  }

  @Test
  void noMutatedRequestGetsA5xxAndNoRefusalChangesAnything() {
    for (int i = 0; i < CASES; i++) {
      String operation = OPERATIONS[random.nextInt(OPERATIONS.length)];
      Mutation mutation = Mutation.values()[random.nextInt(Mutation.values().length)];
      StoredSession before = session();
      int eventsBefore = events().size();
      ObjectNode body = validBody(operation, i, before.cursor());
      Map<String, String> headers = new TreeMap<>(t.scoped(Payloads.HUMAN, before.cursor()));
      byte[] raw = mutate(mutation, body, headers);
      String where = "case " + i + " (seed " + SEED + "): " + mutation + " on " + operation;

      HttpResponse<byte[]> answer = send(where, operation, headers, raw);

      int status = answer.statusCode();
      assertTrue(status < 500, where + " answered " + status + ": " + text(answer));
      outcomes.computeIfAbsent(mutation, m -> new int[2])[status / 100 == 2 ? 0 : 1]++;
      if (status / 100 == 2) {
        List<JsonNode> after = events();
        assertEquals(eventsBefore + 1, after.size(), where);
        assertEquals(List.of(), EventChain.verify(after).stream().toList(), where);
      } else {
        JsonNode error = json(answer, where);
        assertEquals(List.of(), validator.validate("ProtocolError", error), where);
        assertEquals(before.cursor(), session().cursor(), where + ": the cursor moved");
        assertEquals(eventsBefore, events().size(), where + ": events were written");
      }
    }
    // Each mutation was tried, and valid requests were accepted: the fuzzing reached the rules.
    assertEquals(Mutation.values().length, outcomes.size(), outcomes.keySet().toString());
    assertTrue(outcomes.get(Mutation.NONE)[0] > 0, "no valid request was accepted");
  }

  private ObjectNode validBody(String operation, int i, ChainCursor cursor) {
    return switch (operation) {
      case "events" ->
          EventChain.next(cursor, Payloads.event("evt-fuzz-" + i, "note.added", Payloads.HUMAN));
      case "policy-decisions" -> {
        ObjectNode decision = Payloads.decision("pd-fuzz-" + i, "summarize", "allow");
        decision.put("actor_id", Payloads.HUMAN);
        yield decision;
      }
      default -> Payloads.contribution("contribution-fuzz-" + i, genesisEventId);
    };
  }

  private byte[] mutate(Mutation mutation, ObjectNode body, Map<String, String> headers) {
    List<String> fields = new ArrayList<>();
    body.fieldNames().forEachRemaining(fields::add);
    String field = fields.get(random.nextInt(fields.size()));
    switch (mutation) {
      case REMOVED_FIELD -> body.remove(field);
      case RETYPED_FIELD -> {
        JsonNode value = body.get(field);
        if (value.isTextual()) {
          body.put(field, random.nextInt());
        } else if (value.isNumber()) {
          body.put(field, "not a number");
        } else {
          body.putArray(field).add(value);
        }
      }
      case OVERSIZED_STRING -> body.put(field, "x".repeat(1 + random.nextInt(200_000)));
      // Written into the text below: Jackson will neither build nor write a tree this deep.
      case DEEP_NESTING -> body.put(field, NESTING_MARK);
      case LONE_SURROGATE -> {
        // The fields the host hashes first, and any other.
        String target = random.nextBoolean() && body.has("type") ? "type" : field;
        // Written as a JSON escape below: Java would turn a lone surrogate into '?' on encoding.
        body.put(target, SURROGATE_MARK);
      }
      case JUNK_HEADER -> {
        List<String> names = new ArrayList<>(headers.keySet());
        String name = names.get(random.nextInt(names.size()));
        headers.put(name, junkHeaderValue());
      }
      case REMOVED_HEADER -> {
        List<String> names = new ArrayList<>(headers.keySet());
        headers.remove(names.get(random.nextInt(names.size())));
      }
      default -> {}
    }
    String lone = random.nextBoolean() ? "\\ud800" : "a\\udc00b";
    int depth = 50 + random.nextInt(3000);
    String nesting = "[".repeat(depth) + "1" + "]".repeat(depth);
    byte[] raw =
        body.toString()
            .replace(SURROGATE_MARK, lone)
            .replace('"' + NESTING_MARK + '"', nesting)
            .getBytes(StandardCharsets.UTF_8);
    return switch (mutation) {
      case DUPLICATED_KEY -> {
        String text = body.toString();
        yield ("{\"" + field + "\":1," + text.substring(1)).getBytes(StandardCharsets.UTF_8);
      }
      case TRUNCATED_JSON -> java.util.Arrays.copyOf(raw, random.nextInt(raw.length));
      case STRAY_BYTES -> {
        byte[] stray = java.util.Arrays.copyOf(raw, raw.length + 3);
        int at = random.nextInt(raw.length);
        System.arraycopy(raw, at, stray, at + 3, raw.length - at);
        stray[at] = (byte) 0xC3;
        stray[at + 1] = (byte) 0x28;
        stray[at + 2] = (byte) random.nextInt(256);
        yield stray;
      }
      default -> raw;
    };
  }

  private String junkHeaderValue() {
    String[] junk = {"", " ", "-1", "99999999999999999999", "sha256:zz", "v0.1, v0.1", "é", "%00"};
    return random.nextInt(4) == 0
        ? "q".repeat(1 + random.nextInt(8000))
        : junk[random.nextInt(junk.length)];
  }

  private HttpResponse<byte[]> send(
      String where, String operation, Map<String, String> headers, byte[] body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create(t.host.baseUri() + "work-sessions/" + Payloads.WS + "/" + operation))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(request::header);
    try {
      return t.http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new AssertionError(where + ": the host dropped the connection: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private StoredSession session() {
    return t.host.host().config().stores().sessions().find(Payloads.WS).orElseThrow();
  }

  private List<JsonNode> events() {
    return t.host.host().config().stores().sessions().events(Payloads.WS);
  }

  private static String text(HttpResponse<byte[]> answer) {
    return new String(answer.body(), StandardCharsets.UTF_8);
  }

  private static JsonNode json(HttpResponse<byte[]> answer, String where) {
    try {
      return JarvisJson.mapper().readTree(answer.body());
    } catch (IOException e) {
      throw new AssertionError(where + ": the refusal is not JSON: " + text(answer), e);
    }
  }
}
