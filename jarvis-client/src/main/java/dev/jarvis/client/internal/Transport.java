package dev.jarvis.client.internal;

import java.io.IOException;
import java.net.http.HttpRequest;

/**
 * One link of the client's request pipeline (retry → authorization → logging → JDK). Contract: a
 * link may replace headers of the request it passes on, never its method, URI or body, so every
 * attempt of one call sends the same bytes under the same idempotency key.
 */
public interface Transport {

  /**
   * Sends one request and returns the host's answer, whatever its status.
   *
   * @param attempt which attempt of the logical call this is, from 1
   * @throws IOException the host could not be reached or read
   */
  Exchange send(HttpRequest request, int attempt) throws IOException, InterruptedException;
}
