package dev.jarvis.client.internal;

import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.pipeline.JarvisPipeline;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.core.validation.PayloadValidator;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The client's links in their order, with the options' own policies in their two places. The
 * pipeline finds the built-in links it steps in at (where a re-read enters, the cursor step, the
 * retry link) by identity, never by name, and no policy of the caller's may take a built-in's name
 * ({@link #NAMES}), so that {@code client.pipeline()} reads unambiguously.
 */
public final class BuiltInPipeline {

  /** The built-in links' names: a policy of the caller's may take none of them. */
  public static final Set<String> NAMES =
      Set.of(
          ProtocolHeadersPolicy.NAME,
          "validation",
          "idempotency-key",
          SessionCursorPolicy.NAME,
          "event-chain",
          "event-signature",
          "answer-checks",
          RetryingPolicy.NAME,
          "request-timestamp",
          "host-auth",
          "logging",
          "transport");

  private final JarvisPipeline links;
  private final JarvisPolicy firstBuiltIn;
  private final JarvisPolicy cursor;
  private final JarvisPolicy retry;

  private BuiltInPipeline(
      JarvisPipeline links, JarvisPolicy firstBuiltIn, JarvisPolicy cursor, JarvisPolicy retry) {
    this.links = links;
    this.firstBuiltIn = firstBuiltIn;
    this.cursor = cursor;
    this.retry = retry;
  }

  /**
   * Refuses a policy of the caller's named like a built-in link.
   *
   * @throws IllegalArgumentException if it is
   */
  public static JarvisPolicy requireOwnName(JarvisPolicy policy) {
    String name = policy.name();
    if (NAMES.contains(name)) {
      throw new IllegalArgumentException(
          "a policy of yours is named '"
              + name
              + "', the name of a built-in link; give it a name of its own (the built-in links: "
              + new java.util.TreeSet<>(NAMES)
              + ")");
    }
    return policy;
  }

  public static BuiltInPipeline of(
      JarvisClientOptions options,
      HttpClient http,
      PayloadValidator validator,
      SessionCursors cursors) {
    return of(options, http, () -> validator, cursors);
  }

  /**
   * The links, with a validator asked for on first use ({@code PayloadValidator::forSpec}: built
   * once per process), so that creating a client compiles nothing.
   */
  public static BuiltInPipeline of(
      JarvisClientOptions options,
      HttpClient http,
      Supplier<PayloadValidator> validator,
      SessionCursors cursors) {
    options.perCallPolicies().forEach(BuiltInPipeline::requireOwnName);
    options.perAttemptPolicies().forEach(BuiltInPipeline::requireOwnName);
    JarvisPolicy protocolHeaders =
        new ProtocolHeadersPolicy(
            SdkVersion.userAgent() + options.userAgentSuffix().map(s -> " " + s).orElse(""));
    JarvisPolicy cursor = new SessionCursorPolicy(cursors);
    JarvisPolicy retry =
        new RetryingPolicy(
            options.retryPolicy(), options.clock(), options.jitter(), options.totalTimeout());

    List<JarvisPolicy> perCall = new ArrayList<>(options.perCallPolicies());
    perCall.add(protocolHeaders);
    perCall.add(new ValidationPolicy(validator, options.maxRequestBodyBytes()));
    perCall.add(new IdempotencyKeyPolicy(options.idempotencyKeys()));
    perCall.add(cursor);
    perCall.add(
        new EventChainPolicy(
            validator, options.clock(), options.idempotencyKeys(), options.maxRequestBodyBytes()));
    perCall.add(new EventSignaturePolicy(options::signingKey, options.maxRequestBodyBytes()));
    perCall.add(new AnswerChecksPolicy(validator));

    List<JarvisPolicy> perAttempt = new ArrayList<>();
    perAttempt.add(retry);
    perAttempt.add(new RequestTimestampPolicy(options.clock()));
    perAttempt.add(new HostAuthPolicy(options.actorAuth()));
    perAttempt.addAll(options.perAttemptPolicies());
    perAttempt.add(new LoggingPolicy());
    perAttempt.add(new JdkTransportPolicy(http, options.attemptTimeout()));
    return new BuiltInPipeline(
        new JarvisPipeline(perCall, perAttempt), protocolHeaders, cursor, retry);
  }

  /** Every link, in order. */
  public JarvisPipeline links() {
    return links;
  }

  /** The first built-in link: where a WorkSession re-read enters, below the caller's policies. */
  public JarvisPolicy firstBuiltIn() {
    return firstBuiltIn;
  }

  /** The {@code work-session-cursor} link, before which the pipeline's cursor step runs. */
  public JarvisPolicy cursor() {
    return cursor;
  }

  /** The {@code retry} link, from which on every attempt sends the same request. */
  public JarvisPolicy retry() {
    return retry;
  }

  /** The JDK client every attempt goes through. */
  public static HttpClient httpClient(JarvisClientOptions options) {
    HttpClient.Builder http =
        HttpClient.newBuilder()
            // Plain-http hosts must not be offered an h2c upgrade: some runtimes stall on it.
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(options.connectTimeout());
    if ("http".equalsIgnoreCase(options.baseUri().getScheme())) {
      // The one host is plain http and redirects are not followed: no TLS to set up.
      http.sslContext(new PlainHttpOnly());
    }
    return http.build();
  }
}
