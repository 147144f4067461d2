package dev.jarvis.client.internal;

import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.pipeline.JarvisPipeline;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.core.validation.PayloadValidator;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** The client's links in their order, with the options' own policies in their two places. */
public final class BuiltInPipeline {

  private static final String USER_AGENT = "jarvis-java-sdk/0.1.0";

  private BuiltInPipeline() {}

  public static JarvisPipeline of(
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
  public static JarvisPipeline of(
      JarvisClientOptions options,
      HttpClient http,
      Supplier<PayloadValidator> validator,
      SessionCursors cursors) {
    List<JarvisPolicy> perCall = new ArrayList<>(options.perCallPolicies());
    perCall.add(
        new ProtocolHeadersPolicy(
            USER_AGENT + options.userAgentSuffix().map(s -> " " + s).orElse("")));
    perCall.add(new ValidationPolicy(validator, options.maxRequestBodyBytes()));
    perCall.add(new IdempotencyKeyPolicy(options.idempotencyKeys()));
    perCall.add(new SessionCursorPolicy(cursors));
    perCall.add(
        new EventChainPolicy(
            validator, options.clock(), options.idempotencyKeys(), options.maxRequestBodyBytes()));
    perCall.add(new AnswerChecksPolicy(validator));

    List<JarvisPolicy> perAttempt = new ArrayList<>();
    perAttempt.add(
        new RetryingPolicy(
            options.retryPolicy(), options.clock(), options.jitter(), options.totalTimeout()));
    perAttempt.add(new RequestTimestampPolicy(options.clock()));
    perAttempt.add(new HostAuthPolicy(options.actorAuth()));
    perAttempt.addAll(options.perAttemptPolicies());
    perAttempt.add(new LoggingPolicy());
    perAttempt.add(new JdkTransportPolicy(http, options.attemptTimeout()));
    return new JarvisPipeline(perCall, perAttempt);
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
