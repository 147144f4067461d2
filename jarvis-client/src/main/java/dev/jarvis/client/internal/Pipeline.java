package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisCall;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.client.JarvisStaleSessionException;
import dev.jarvis.client.generated.invoker.ApiClient;
import dev.jarvis.client.pipeline.JarvisPipeline;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineContractException;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.OperationClass;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs calls through the client's links and holds each link to the pipeline's contract. It builds
 * the request from the spec's operation (method, path template) and the call's body, with a {@link
 * CallExchange} as its typed context, and hands it to the first link; each link hands it to the
 * next, and the answer returns the same way. The last link is the transport.
 *
 * <p>The WorkSession cursor is the pipeline's own step, run just before the {@code
 * work-session-cursor} link (after validation, so a local refusal costs no request): it puts the
 * cursor a mutation sends into the exchange (genesis, the known one, or one a re-read finds) and,
 * after a stale answer, re-reads and fails with {@link JarvisStaleSessionException}. A re-read is
 * an exchange of its own through the built-in links, started by this step, never by a link; your
 * per-call policies see one call, your per-attempt policies each attempt of both exchanges.
 *
 * <p>The contract, checked at every hand-over, so that a policy that breaks it fails the call with
 * {@link PipelineContractException} instead of sending a request that is not the call's: a link
 * passes the request on exactly once (the {@code retry} link once per attempt; the pipeline numbers
 * the attempts) and answers only after passing it on (a failure may come back without); what it
 * passes on belongs to this exchange and keeps the idempotency key and cursor headers the pipeline
 * set; from the {@code retry} link down, the URI and body bytes are those of the first attempt.
 */
public final class Pipeline {

  private static final Set<ProtocolErrorId> STALE_SESSION =
      Set.of(
          ProtocolErrorId.STALE_WORK_SESSION_REVISION, ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH);

  private final String baseUri;
  private final JarvisPipeline links;
  private final List<JarvisPolicy> chain;
  private final SessionCursors cursors;

  /** Where a WorkSession re-read enters: the first built-in link. */
  private final int builtIn;

  private final int cursorLink;
  private final int retryLink;

  public Pipeline(URI baseUri, BuiltInPipeline builtIns, SessionCursors cursors) {
    this.baseUri = baseUri.toString().replaceAll("/+$", "");
    this.links = builtIns.links();
    this.chain = links.links();
    this.cursors = cursors;
    this.builtIn = indexOf(builtIns.firstBuiltIn());
    this.cursorLink = indexOf(builtIns.cursor());
    this.retryLink = indexOf(builtIns.retry());
  }

  /** Where the link is: by identity, so that no other link can stand in for it by its name. */
  private int indexOf(JarvisPolicy link) {
    for (int i = 0; i < chain.size(); i++) {
      if (chain.get(i) == link) {
        return i;
      }
    }
    throw new IllegalArgumentException("the pipeline has no '" + link.name() + "' link: " + links);
  }

  /** The links, as {@code client.pipeline()} shows them. */
  public JarvisPipeline links() {
    return links;
  }

  /** Sends {@code call} as {@code actorId}; the future fails with whatever a link failed with. */
  public CompletableFuture<PipelineResponse> send(
      JarvisCall<?> call, String actorId, CallScope scope) {
    return exchange(call, actorId, scope, 0);
  }

  /**
   * Sends the {@code event-log} read {@code call} asking for a stream ({@link LiveRead}): through
   * every link, as any read. When the host answers a stream, {@code live} holds its open body and
   * the answer has no record; otherwise the answer is the page read's.
   */
  public CompletableFuture<PipelineResponse> sendLive(
      JarvisCall<?> call, String actorId, CallScope scope, LiveRead live) {
    return exchange(new CallExchange(scope, call, actorId, Optional.of(live)), 0);
  }

  private CompletableFuture<PipelineResponse> exchange(
      JarvisCall<?> call, String actorId, CallScope scope, int from) {
    return exchange(new CallExchange(scope, call, actorId), from);
  }

  private CompletableFuture<PipelineResponse> exchange(CallExchange exchange, int from) {
    PipelineRequest request;
    try {
      request = request(exchange);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return ReadyStages.handle(
        new Link(from, exchange, false).send(request),
        (answer, failure) -> {
          // A violation stands even where the link that saw it swallowed it.
          Optional<PipelineContractException> broken = exchange.broken();
          if (broken.isPresent()) {
            throw broken.get();
          }
          if (failure != null) {
            throw FailureCause.rethrowable(failure);
          }
          return answer;
        });
  }

  private PipelineRequest request(CallExchange exchange) {
    JarvisCall<?> call = exchange.call();
    String path = call.operation().path();
    // Each spec operation has at most one path parameter, the request-read reads two; each is
    // encoded as the generated API encodes it.
    for (String value : call.pathParameters()) {
      int open = path.indexOf('{');
      if (open < 0) {
        break;
      }
      path =
          path.substring(0, open)
              + ApiClient.urlEncode(value)
              + path.substring(path.indexOf('}', open) + 1);
    }
    if (path.indexOf('{') >= 0) {
      throw new IllegalArgumentException(call + " has no value for a path parameter");
    }
    Optional<JsonNode> body = call.body().map(JarvisJson.mapper()::valueToTree);
    String query = call.query().map(q -> "?" + q).orElse("");
    return PipelineRequest.of(exchange, URI.create(baseUri + path + query), body);
  }

  // ---- the cursor step ----

  /** Chooses the cursor, runs the cursor link and the rest, and answers a stale refusal. */
  private CompletableFuture<PipelineResponse> withCursor(
      PipelineRequest request, CallExchange exchange, Link cursor) {
    OperationClass kind = request.operation().operationClass();
    if (!kind.needsCursor()) {
      return cursor.invoke(request);
    }
    CompletableFuture<ChainCursor> chosen =
        kind == OperationClass.WORKSESSION_GENESIS_MUTATION
            ? CompletableFuture.completedFuture(ChainCursor.GENESIS)
            : cursors
                .get(sessionOf(exchange))
                .map(CompletableFuture::completedFuture)
                .orElseGet(() -> reread(exchange));
    CompletableFuture<PipelineResponse> answered =
        ReadyStages.thenCompose(
            chosen,
            sent -> {
              exchange.cursor(sent);
              return cursor.invoke(request);
            });
    if (ReadyStages.succeeded(answered)) {
      return answered;
    }
    return answered
        .handle(
            (answer, failure) ->
                failure == null
                    ? CompletableFuture.completedFuture(answer)
                    : staleOrFailed(exchange, FailureCause.of(failure)))
        .thenCompose(outcome -> outcome);
  }

  private CompletableFuture<PipelineResponse> staleOrFailed(
      CallExchange exchange, Throwable failure) {
    if (failure instanceof JarvisRefusalException refusal
        && !(failure instanceof JarvisStaleSessionException)
        && STALE_SESSION.contains(refusal.errorId())) {
      String session = sessionOf(exchange);
      cursors.forget(session);
      return reread(exchange)
          .thenCompose(
              current ->
                  CompletableFuture.failedFuture(
                      new JarvisStaleSessionException(
                          refusal.error(), refusal.call().orElse(""), session, current)));
    }
    return CompletableFuture.failedFuture(failure);
  }

  /** Reads the WorkSession as the same Actor, in the same scope, through the built-in links. */
  private CompletableFuture<ChainCursor> reread(CallExchange exchange) {
    return exchange(
            JarvisCall.getWorkSession(sessionOf(exchange)),
            exchange.actorId(),
            exchange.scope(),
            builtIn)
        .thenApply(answer -> SessionCursorPolicy.cursorOf((WorkSession) answer.record().get()));
  }

  private static String sessionOf(CallExchange exchange) {
    return exchange
        .call()
        .workSessionId()
        .orElseThrow(() -> new IllegalArgumentException(exchange.call() + " names no WorkSession"));
  }

  // ---- the links and their contract ----

  /** The rest of the chain from one link down, for one exchange: the {@code next} a link gets. */
  private final class Link implements JarvisPolicy.Next {
    private final int index;
    private final CallExchange exchange;

    /** The {@code next} of the retry link: passed on once per attempt. */
    private final boolean perAttempt;

    /** Atomic: a misbehaving policy may pass the request on twice at once. */
    private final AtomicInteger sends = new AtomicInteger();

    Link(int index, CallExchange exchange, boolean perAttempt) {
      this.index = index;
      this.exchange = exchange;
      this.perAttempt = perAttempt;
    }

    /** The link that hands this request on. */
    private String giver() {
      return index == 0 ? "pipeline" : chain.get(index - 1).name();
    }

    @Override
    public CompletableFuture<PipelineResponse> send(PipelineRequest request) {
      try {
        if (sends.incrementAndGet() > 1 && !perAttempt) {
          throw broken(
              "passed the request on twice: a link passes it on exactly once (the retry link"
                  + " makes the attempts)");
        }
        if (index == chain.size()) {
          throw broken("passed the request on, but the transport is the last link");
        }
        PipelineRequest checked = honoured(request);
        if (index == cursorLink) {
          return withCursor(checked, exchange, this);
        }
        return invoke(checked);
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
    }

    /** The request, if the link that hands it on kept to the contract; numbered per attempt. */
    private PipelineRequest honoured(PipelineRequest request) {
      if (request.context() != exchange) {
        throw broken(
            "passed on a request of another call: pass on the request you were given (or a"
                + " copy of it from its with* methods)");
      }
      Optional<String> key = exchange.idempotencyKey();
      if (key.isPresent() && !request.header(JarvisHeaders.IDEMPOTENCY_KEY).equals(key)) {
        throw broken(
            "changed the Jarvis-Idempotency-Key: every attempt of a call carries the one key the"
                + " idempotency-key link took");
      }
      Optional<ChainCursor> cursor = exchange.cursor();
      if (index > cursorLink && cursor.isPresent() && !sendsCursor(request, cursor.get())) {
        throw broken(
            "changed the WorkSession cursor headers: the pipeline chose the cursor this call"
                + " sends");
      }
      Optional<PipelineRequest> fixed = exchange.fixed();
      if (fixed.isPresent()) {
        if (!request.uri().equals(fixed.get().uri())) {
          throw broken("changed the URI of a request whose attempts have started");
        }
        if (!request.sameBody(fixed.get())) {
          throw broken(
              "changed the body bytes of a request whose idempotency key is taken: every attempt"
                  + " sends the same bytes under one key (a per-call policy of yours may replace"
                  + " the body before the built-in links)");
        }
      }
      if (perAttempt) {
        return AttemptNumbering.numbered(request, exchange.startAttempt());
      }
      if (request.attempt() != exchange.attempt()) {
        throw broken(
            "changed the attempt number to "
                + request.attempt()
                + " (attempt "
                + exchange.attempt()
                + "): the pipeline numbers the attempts");
      }
      return request;
    }

    /** Runs this link with the rest of the chain below it. */
    CompletableFuture<PipelineResponse> invoke(PipelineRequest request) {
      JarvisPolicy policy = chain.get(index);
      if (index == retryLink) {
        exchange.fix(request);
      }
      Link next = new Link(index + 1, exchange, index == retryLink);
      CompletableFuture<PipelineResponse> answer;
      try {
        answer = policy.send(request, next);
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
      Objects.requireNonNull(answer, () -> policy.name() + " returned no future");
      if (index == chain.size() - 1) {
        return answer; // the transport answers itself
      }
      return ReadyStages.thenApply(
          answer,
          response -> {
            if (next.sends.get() == 0) {
              throw exchange.broke(
                  new PipelineContractException(
                      policy.name(),
                      "answered without passing the request on: a link passes it on exactly once"
                          + " (it may fail without doing so)"));
            }
            return response;
          });
    }

    private PipelineContractException broken(String what) {
      return exchange.broke(new PipelineContractException(giver(), what));
    }
  }

  private static boolean sendsCursor(PipelineRequest request, ChainCursor cursor) {
    return request
            .header(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION)
            .equals(Optional.of(Long.toString(cursor.revision())))
        && request
            .header(JarvisHeaders.PREVIOUS_EVENT_HASH)
            .equals(Optional.of(cursor.lastEventHash()));
  }
}
