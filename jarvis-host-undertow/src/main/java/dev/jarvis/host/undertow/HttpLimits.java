package dev.jarvis.host.undertow;

import dev.jarvis.host.ProtocolHost;
import java.time.Duration;
import java.util.Objects;

/**
 * What one host instance takes from its callers at most, held by the Undertow binding. The body
 * size is the host kit's ({@link ProtocolHost#MAX_BODY_BYTES}); JSON nesting and text it cannot
 * carry are the protocol core's. Each limit, what a caller gets past it, and how to change it are
 * listed in {@code docs/host.md} ("Limits").
 */
public final class HttpLimits {
  private final int maxConnections;
  private final int maxHeaders;
  private final int maxHeaderBytes;
  private final Duration requestTimeout;
  private final Duration idleTimeout;

  private HttpLimits(
      int maxConnections,
      int maxHeaders,
      int maxHeaderBytes,
      Duration requestTimeout,
      Duration idleTimeout) {
    positive(maxConnections, "maxConnections");
    positive(maxHeaders, "maxHeaders");
    positive(maxHeaderBytes, "maxHeaderBytes");
    positive(Objects.requireNonNull(requestTimeout, "requestTimeout").toMillis(), "requestTimeout");
    positive(Objects.requireNonNull(idleTimeout, "idleTimeout").toMillis(), "idleTimeout");
    this.maxConnections = maxConnections;
    this.maxHeaders = maxHeaders;
    this.maxHeaderBytes = maxHeaderBytes;
    this.requestTimeout = requestTimeout;
    this.idleTimeout = idleTimeout;
  }

  /**
   * Open connections that may send requests; the next one's request is answered 503 with a {@code
   * ProtocolError} and the connection is closed.
   */
  public int maxConnections() {
    return maxConnections;
  }

  /**
   * Header fields in one request; past it the request is answered 400 and the connection closed.
   */
  public int maxHeaders() {
    return maxHeaders;
  }

  /** Bytes of one request's request line and header fields; past it the same. */
  public int maxHeaderBytes() {
    return maxHeaderBytes;
  }

  /**
   * How long a request may take to arrive in full, headers and body, from its first byte; a slower
   * one is answered 408 (or, still in its headers, its connection closed).
   */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  /** How long a keep-alive connection may stay open with no request. */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  /** Past this much of an oversized body, the binding stops reading and closes the connection. */
  public static final long DRAIN_LIMIT = 16L << 20;

  /**
   * The defaults: 1,024 connections, 100 header fields, 64 KiB of headers, 30 s to send a request,
   * 120 s idle.
   */
  public static HttpLimits defaults() {
    return new HttpLimits(1024, 100, 64 * 1024, Duration.ofSeconds(30), Duration.ofSeconds(120));
  }

  /** The same with another connection limit. */
  public HttpLimits withMaxConnections(int n) {
    return new HttpLimits(n, maxHeaders, maxHeaderBytes, requestTimeout, idleTimeout);
  }

  /** The same with another header count limit. */
  public HttpLimits withMaxHeaders(int n) {
    return new HttpLimits(maxConnections, n, maxHeaderBytes, requestTimeout, idleTimeout);
  }

  /** The same with another header size limit. */
  public HttpLimits withMaxHeaderBytes(int n) {
    return new HttpLimits(maxConnections, maxHeaders, n, requestTimeout, idleTimeout);
  }

  /** The same with another request time limit. */
  public HttpLimits withRequestTimeout(Duration d) {
    return new HttpLimits(maxConnections, maxHeaders, maxHeaderBytes, d, idleTimeout);
  }

  /** The same with another idle limit. */
  public HttpLimits withIdleTimeout(Duration d) {
    return new HttpLimits(maxConnections, maxHeaders, maxHeaderBytes, requestTimeout, d);
  }

  private static void positive(long value, String name) {
    if (value <= 0 || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof HttpLimits o
        && maxConnections == o.maxConnections
        && maxHeaders == o.maxHeaders
        && maxHeaderBytes == o.maxHeaderBytes
        && requestTimeout.equals(o.requestTimeout)
        && idleTimeout.equals(o.idleTimeout);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(
        maxConnections, maxHeaders, maxHeaderBytes, requestTimeout, idleTimeout);
  }

  @Override
  public String toString() {
    return "HttpLimits[maxConnections="
        + maxConnections
        + ", maxHeaders="
        + maxHeaders
        + ", maxHeaderBytes="
        + maxHeaderBytes
        + ", requestTimeout="
        + requestTimeout
        + ", idleTimeout="
        + idleTimeout
        + "]";
  }
}
