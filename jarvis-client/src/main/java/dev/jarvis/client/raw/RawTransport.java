package dev.jarvis.client.raw;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

/**
 * Raw HTTP/1.1 to a host over {@code java.net.http}: sends each {@link RawRequest} exactly as given
 * and answers the {@link RawExchange}. One transport is one JDK {@code HttpClient}, so one pool of
 * keep-alive connections; a load generator that wants a connection per worker makes a transport per
 * worker. Each answer comes back as a {@link RawExchange}, the request as sent beside the answer,
 * for the caller to keep (the conformance suite keeps them all, for its checks over a whole run).
 *
 * <p>Safe for use by several threads. Its connections go when it is no longer referenced (Java 17's
 * {@code HttpClient} has no close).
 */
public final class RawTransport {

  private final HttpClient http;
  private final Duration requestTimeout;

  private RawTransport(Builder builder) {
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(builder.connectTimeout)
            .build();
    this.requestTimeout = builder.requestTimeout;
  }

  /** A transport with the defaults: 10 s to connect, 10 s for each answer. */
  public static RawTransport create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Sends {@code request} and waits for the whole answer.
   *
   * @throws java.net.ConnectException if the host cannot be reached (also {@link
   *     java.net.http.HttpConnectTimeoutException})
   * @throws IOException on any other transport failure, the answer's timeout included
   */
  public RawExchange send(RawRequest request) throws IOException, InterruptedException {
    HttpRequest.Builder http =
        HttpRequest.newBuilder(request.uri())
            .timeout(requestTimeout)
            .method(
                request.method(),
                request.hasBody()
                    ? HttpRequest.BodyPublishers.ofByteArray(request.body())
                    : HttpRequest.BodyPublishers.noBody());
    request.headers().forEach(http::header);
    HttpResponse<byte[]> answer =
        this.http.send(http.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new RawExchange(request, answer.statusCode(), answer.headers().map(), answer.body());
  }

  /** Builds a {@link RawTransport}. */
  public static final class Builder {
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration requestTimeout = Duration.ofSeconds(10);

    private Builder() {}

    /** How long connecting may take (default 10 s). */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** How long one request may wait for its whole answer (default 10 s). */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    public RawTransport build() {
      return new RawTransport(this);
    }
  }
}
