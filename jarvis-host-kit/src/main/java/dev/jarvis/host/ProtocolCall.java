package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.exchange.ProtocolExchange;
import dev.jarvis.core.headers.MutationHeaders;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A request that passed the request guard: the typed {@link ProtocolExchange} the guard read once
 * (operation, acting Actor, path ids, cursor, idempotency key, timestamp, body bytes and tree), its
 * {@link ReadQuery query}, and what the guard learnt on the way. Built through {@link #builder}, so
 * that a part added later breaks no caller; immutable.
 */
public final class ProtocolCall {

  private final ProtocolExchange exchange;
  private final ReadQuery query;
  private final Optional<String> traceId;
  private final Optional<JsonNode> actorRecord;

  private ProtocolCall(Builder builder) {
    this.exchange = builder.exchange;
    this.query = builder.query;
    this.traceId = builder.traceId;
    this.actorRecord = builder.actorRecord;
  }

  /** A builder of a call carrying {@code exchange}; no query, no trace, no Actor record. */
  public static Builder builder(ProtocolExchange exchange) {
    return new Builder(exchange);
  }

  /** A builder holding this call's parts, to change some. */
  public Builder toBuilder() {
    return new Builder(exchange).query(query).traceId(traceId).actorRecord(actorRecord);
  }

  /** The same call, its errors traced as {@code traceId}. */
  public ProtocolCall tracedAs(Optional<String> traceId) {
    return toBuilder().traceId(traceId).build();
  }

  /** The request, read once. */
  public ProtocolExchange exchange() {
    return exchange;
  }

  /**
   * The query string, parsed once by the guard; {@link ReadQuery#none()} for every operation but
   * the paged reads.
   */
  public ReadQuery query() {
    return query;
  }

  /**
   * The {@code trace_id} for this call's {@code ProtocolError}s, taken from the request's W3C
   * {@code traceparent}; empty for the host's own supplier.
   */
  public Optional<String> traceId() {
    return traceId;
  }

  /**
   * The acting Actor's record as the request guard read it, so that the rest of this request reads
   * it no more; it lives as long as the call only, since another host instance may change the
   * Actor. Empty for registrations (whose admin Actor is no record) and for a call built without
   * the guard, whose handling reads the Actor itself.
   */
  public Optional<JsonNode> actorRecord() {
    return actorRecord;
  }

  /** The spec operation. */
  public ProtocolOperation operation() {
    return exchange.operation();
  }

  /** {@code Jarvis-Actor-Id}. */
  public String actorId() {
    return exchange.actorId();
  }

  /** Path parameter values by the spec's names. */
  public Map<String, String> pathParameters() {
    return exchange.pathIds();
  }

  /** The parsed mutation headers; empty for reads. */
  public Optional<MutationHeaders> mutationHeaders() {
    return exchange.mutationHeaders();
  }

  /** A copy of the body bytes as they travelled, empty for reads. */
  public byte[] rawBody() {
    return exchange.body().bytes();
  }

  /** The body as the one tree read from its bytes; a missing node for reads. */
  public JsonNode body() {
    return exchange.tree();
  }

  /** The operationId. */
  public String operationId() {
    return exchange.operationId();
  }

  /** The {@code work_session_id} path parameter, if the operation has one. */
  public Optional<String> workSessionId() {
    return exchange.workSessionId();
  }

  /** The page the {@code event-log} read asks for: {@code query().eventPage()}. */
  public EventLog.PageRequest eventPage() {
    return query.eventPage();
  }

  /** The mutation headers; only for mutations. */
  public MutationHeaders mutation() {
    return mutationHeaders()
        .orElseThrow(() -> new IllegalStateException(operation().operationId() + " is a read"));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ProtocolCall that
        && exchange.equals(that.exchange)
        && query.equals(that.query)
        && traceId.equals(that.traceId)
        && actorRecord.equals(that.actorRecord);
  }

  @Override
  public int hashCode() {
    return Objects.hash(exchange, query, traceId, actorRecord);
  }

  @Override
  public String toString() {
    return "ProtocolCall[" + exchange.operationId() + " by " + exchange.actorId() + "]";
  }

  /** Builds a {@link ProtocolCall}; every part but the exchange is optional. */
  public static final class Builder {

    private final ProtocolExchange exchange;
    private ReadQuery query = ReadQuery.none();
    private Optional<String> traceId = Optional.empty();
    private Optional<JsonNode> actorRecord = Optional.empty();

    private Builder(ProtocolExchange exchange) {
      this.exchange = Objects.requireNonNull(exchange, "exchange");
    }

    /** The parsed query string; {@link ReadQuery#none()} unless set. */
    public Builder query(ReadQuery query) {
      this.query = Objects.requireNonNull(query, "query");
      return this;
    }

    /** The {@code trace_id} for the call's errors; empty (the host's supplier) unless set. */
    public Builder traceId(Optional<String> traceId) {
      this.traceId = Objects.requireNonNull(traceId, "traceId");
      return this;
    }

    /** The acting Actor's record as read by the guard; empty unless set. */
    public Builder actorRecord(Optional<JsonNode> actorRecord) {
      this.actorRecord = Objects.requireNonNull(actorRecord, "actorRecord");
      return this;
    }

    /** The call. */
    public ProtocolCall build() {
      return new ProtocolCall(this);
    }
  }
}
