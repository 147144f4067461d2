package dev.jarvis.client;

import java.net.http.HttpHeaders;

/**
 * A successful answer with its HTTP details.
 *
 * @param status the HTTP status (200, 201 or 202)
 * @param headers the response headers, {@code Jarvis-Host-Capabilities} among them
 * @param body the protocol record
 * @param attempts how many attempts the call took
 */
public record JarvisResponse<T>(int status, HttpHeaders headers, T body, int attempts) {}
