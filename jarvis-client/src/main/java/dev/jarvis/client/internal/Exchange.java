package dev.jarvis.client.internal;

import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;

/**
 * A request as sent and the host's answer as received, bytes untouched.
 *
 * @param request the request of the final attempt
 * @param status the HTTP status
 * @param headers the response headers
 * @param body the response body, exactly as received
 * @param attempts attempts the call took
 */
public record Exchange(
    HttpRequest request, int status, HttpHeaders headers, byte[] body, int attempts) {

  Exchange withAttempts(int attempts) {
    return new Exchange(request, status, headers, body, attempts);
  }
}
