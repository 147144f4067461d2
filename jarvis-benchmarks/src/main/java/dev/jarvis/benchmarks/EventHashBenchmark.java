package dev.jarvis.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.canonical.JcsCanonicalizer;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.hash.EventHash;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Canonicalize + SHA-256 of a ~1 KiB JarvisEvent, and verifying a 100,000-event chain. Target: at
 * least 200,000 events per second on one core. Run: see docs/benchmarks.md.
 */
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class EventHashBenchmark {

  static final int CHAIN_LENGTH = 100_000;

  JsonNode event;
  byte[] eventBytes;
  List<JsonNode> chain;

  /** A realistic event of about 1 KiB: ids, a timestamp, a payload with refs and a summary. */
  static ObjectNode draft(int n) {
    ObjectNode draft = JarvisJson.mapper().createObjectNode();
    draft.put("id", "event-" + n);
    draft.put("type", "policy_decision.recorded");
    draft.put("work_session_id", "ws-protocol-001");
    draft.put("actor_id", "actor-agent-001");
    draft.put("timestamp", "2026-06-12T18:05:00.125Z");
    ObjectNode payload = draft.putObject("payload");
    payload.put("object_type", "policy_decision");
    payload.put("object_id", "pd-network-" + n);
    payload.put("action", "recorded");
    payload.put(
        "summary",
        "AgentWorker asked to fetch an external source; policy bounded-001 denied it and a Request"
            + " for HumanWorker review was opened. Décision enregistrée — 審査待ち. 🚦");
    var refs = payload.putArray("evidence_refs");
    for (int i = 0; i < 8; i++) {
      refs.add("evidence:source-summary-" + n + "-" + i + ":sha256-abcdef0123456789");
    }
    var fields = payload.putArray("field_refs");
    for (int i = 0; i < 6; i++) {
      fields.add("field:/requested_action/input_refs/" + i);
    }
    draft.putObject("trace_context").put("trace_id", "trace:" + n).put("correlation_ref", "corr:1");
    return draft;
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    event = EventChain.next(ChainCursor.GENESIS, draft(1));
    eventBytes = JarvisJson.mapper().writeValueAsBytes(event);
    chain = new ArrayList<>(CHAIN_LENGTH);
    ChainCursor cursor = ChainCursor.GENESIS;
    for (int n = 1; n <= CHAIN_LENGTH; n++) {
      ObjectNode next = EventChain.next(cursor, draft(n));
      chain.add(next);
      cursor = cursor.advance(next.get("event_hash").asText());
    }
  }

  /** The event hash from a parsed tree: what a host does for each appended event. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public String eventHashOfTree() {
    return EventHash.of(event);
  }

  /** Canonical bytes + SHA-256 straight from the raw bytes that travelled. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public Sha256Hash canonicalizeAndHashRawBytes() {
    return Sha256Hash.of(JcsCanonicalizer.canonicalize(eventBytes));
  }

  /** Verifying a whole 100,000-event chain from genesis; events/s = 100,000 / score. */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 3, batchSize = 1)
  @Measurement(iterations = 5, batchSize = 1)
  public boolean verifyChainOf100k() {
    return EventChain.verify(chain).isEmpty();
  }
}
