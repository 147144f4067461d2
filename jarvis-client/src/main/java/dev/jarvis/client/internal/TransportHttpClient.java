package dev.jarvis.client.internal;

import dev.jarvis.client.JarvisTransportException;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * The {@link HttpClient} the generated API sees. Its {@code send} runs the request through the
 * client's {@link Transport} pipeline and records the raw {@link Exchange} for the client; every
 * other method answers for the real JDK client underneath.
 */
public final class TransportHttpClient extends HttpClient {

  private final HttpClient jdk;
  private final Transport pipeline;

  public TransportHttpClient(HttpClient jdk, Transport pipeline) {
    this.jdk = jdk;
    this.pipeline = pipeline;
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    Exchange exchange;
    try {
      exchange = pipeline.send(request, 1);
    } catch (IOException e) {
      throw new JarvisTransportException(
          request.method()
              + " "
              + request.uri().getRawPath()
              + ": could not reach or read the host: "
              + describe(e),
          e);
    }
    ExchangeCapture.record(exchange);
    return new CapturedResponse<>(exchange, decode(exchange, handler));
  }

  private static String describe(IOException e) {
    return e.getMessage() == null
        ? e.getClass().getSimpleName()
        : e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private static <T> T decode(Exchange exchange, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    HttpResponse.BodySubscriber<T> subscriber =
        handler.apply(
            new HttpResponse.ResponseInfo() {
              @Override
              public int statusCode() {
                return exchange.status();
              }

              @Override
              public HttpHeaders headers() {
                return exchange.headers();
              }

              @Override
              public Version version() {
                return Version.HTTP_1_1;
              }
            });
    subscriber.onSubscribe(
        new Flow.Subscription() {
          @Override
          public void request(long n) {}

          @Override
          public void cancel() {}
        });
    subscriber.onNext(List.of(ByteBuffer.wrap(exchange.body())));
    subscriber.onComplete();
    try {
      return subscriber.getBody().toCompletableFuture().get();
    } catch (ExecutionException e) {
      throw new IOException("could not decode the response body", e.getCause());
    }
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    throw new UnsupportedOperationException("the Jarvis client runs calls asynchronously itself");
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request,
      HttpResponse.BodyHandler<T> handler,
      HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
    throw new UnsupportedOperationException("the Jarvis client runs calls asynchronously itself");
  }

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return jdk.cookieHandler();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return jdk.connectTimeout();
  }

  @Override
  public Redirect followRedirects() {
    return jdk.followRedirects();
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return jdk.proxy();
  }

  @Override
  public SSLContext sslContext() {
    return jdk.sslContext();
  }

  @Override
  public SSLParameters sslParameters() {
    return jdk.sslParameters();
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return jdk.authenticator();
  }

  @Override
  public Version version() {
    return jdk.version();
  }

  @Override
  public Optional<Executor> executor() {
    return jdk.executor();
  }

  private record CapturedResponse<T>(Exchange exchange, T body) implements HttpResponse<T> {
    @Override
    public int statusCode() {
      return exchange.status();
    }

    @Override
    public HttpRequest request() {
      return exchange.request();
    }

    @Override
    public Optional<HttpResponse<T>> previousResponse() {
      return Optional.empty();
    }

    @Override
    public HttpHeaders headers() {
      return exchange.headers();
    }

    @Override
    public Optional<SSLSession> sslSession() {
      return Optional.empty();
    }

    @Override
    public URI uri() {
      return exchange.request().uri();
    }

    @Override
    public Version version() {
      return Version.HTTP_1_1;
    }
  }
}
