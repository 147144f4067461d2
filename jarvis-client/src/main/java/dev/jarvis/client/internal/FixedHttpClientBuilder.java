package dev.jarvis.client.internal;

import java.net.http.HttpClient;

/** Hands the generated {@code ApiClient} our pipeline instead of building a JDK client. */
public record FixedHttpClientBuilder(HttpClient client) implements HttpClient.Builder {
  @Override
  public HttpClient build() {
    return client;
  }

  @Override
  public HttpClient.Builder cookieHandler(java.net.CookieHandler cookieHandler) {
    throw unsupported();
  }

  @Override
  public HttpClient.Builder connectTimeout(java.time.Duration duration) {
    throw unsupported();
  }

  @Override
  public HttpClient.Builder sslContext(javax.net.ssl.SSLContext sslContext) {
    throw unsupported();
  }

  @Override
  public HttpClient.Builder sslParameters(javax.net.ssl.SSLParameters sslParameters) {
    throw unsupported();
  }

  @Override
  public HttpClient.Builder executor(java.util.concurrent.Executor executor) {
    throw unsupported();
  }

  @Override
  public HttpClient.Builder followRedirects(HttpClient.Redirect policy) {
    throw unsupported();
  }

  @Override
  public HttpClient.Builder version(HttpClient.Version version) {
    throw unsupported();
  }

  @Override
  public HttpClient.Builder priority(int priority) {
    throw unsupported();
  }

  @Override
  public HttpClient.Builder proxy(java.net.ProxySelector proxySelector) {
    throw unsupported();
  }

  @Override
  public HttpClient.Builder authenticator(java.net.Authenticator authenticator) {
    throw unsupported();
  }

  private static UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("configure the client through JarvisClientOptions");
  }
}
