package dev.jarvis.client.internal;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** The last link: {@code java.net.http}. */
public final class JdkTransport implements Transport {

  private final HttpClient http;

  public JdkTransport(HttpClient http) {
    this.http = http;
  }

  @Override
  public Exchange send(HttpRequest request, int attempt) throws IOException, InterruptedException {
    HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    return new Exchange(
        request, response.statusCode(), response.headers(), response.body(), attempt);
  }
}
