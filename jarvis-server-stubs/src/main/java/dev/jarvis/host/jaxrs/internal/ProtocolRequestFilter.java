package dev.jarvis.host.jaxrs.internal;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.HeaderLookup;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequiredCapabilities;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.jaxrs.JarvisHostFeature;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The request guard of one operation. Reads the body bytes first (and puts them back for entity
 * binding), so hashes and fingerprints use what travelled, and payload rules see the raw JSON
 * before Jackson binds it.
 */
@Priority(Priorities.AUTHENTICATION)
final class ProtocolRequestFilter implements ContainerRequestFilter {

  /** How much of an oversized body is read and dropped before answering. */
  private static final long DRAIN_LIMIT = 16L << 20;

  private final ProtocolHost host;
  private final ProtocolOperation operation;
  private final RoutedOperations routes;

  ProtocolRequestFilter(ProtocolHost host, ProtocolOperation operation, RoutedOperations routes) {
    this.host = host;
    this.operation = operation;
    this.routes = routes;
  }

  @Override
  public void filter(ContainerRequestContext request) throws IOException {
    byte[] body = new byte[0];
    if (request.hasEntity()) {
      try (InputStream in = request.getEntityStream()) {
        // One byte past the limit is enough to know it is too big.
        body = in.readNBytes(ProtocolHost.MAX_BODY_BYTES + 1);
        if (body.length > ProtocolHost.MAX_BODY_BYTES) {
          drain(in);
        }
      }
    }
    request.setEntityStream(new ByteArrayInputStream(body));
    Map<String, String> path = new HashMap<>();
    request
        .getUriInfo()
        .getPathParameters()
        .forEach((name, values) -> path.put(name, values.get(0)));
    // The host kit reads the query, after HostAuth, as every binding hands it: raw, "" for none.
    String query =
        Optional.ofNullable(request.getUriInfo().getRequestUri().getRawQuery()).orElse("");
    try {
      Function<String, Optional<String>> headers = HeaderLookup.ofLists(request.getHeaders());
      ProtocolCall call = host.check(operation, headers, path, query, body);
      unserved(headers)
          .ifPresent(
              violation -> {
                throw new ProtocolRefusal(violation)
                    .about(operation.operationId(), Optional.empty());
              });
      request.setProperty(JarvisHostFeature.CALL_PROPERTY, call);
      request.setProperty(JarvisHostFeature.HOST_PROPERTY, host);
    } catch (ProtocolRefusal refusal) {
      request.abortWith(JarvisHostFeature.toResponse(host.refusal(refusal)));
    } catch (RuntimeException failure) {
      request.abortWith(JarvisHostFeature.toResponse(host.hostFailure(failure)));
    }
  }

  /**
   * A required capability the host declares but the application does not serve (the {@code
   * event-log} read no resource routes): the guard passed it, as the host's configuration declares
   * it.
   */
  private Optional<ProtocolViolation> unserved(Function<String, Optional<String>> headers) {
    return RequiredCapabilities.parse(headers.apply(JarvisHeaders.REQUIRED_CAPABILITIES))
        .value()
        .flatMap(required -> required)
        .flatMap(required -> required.checkSupportedBy(routes.served(host)));
  }

  /**
   * Reads and drops what is left of an oversized body, up to a bound, so that the refusal reaches a
   * client that is still sending instead of a reset connection.
   */
  private static void drain(InputStream in) throws IOException {
    byte[] buffer = new byte[64 * 1024];
    long left = DRAIN_LIMIT;
    int n;
    while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0) {
      left -= n;
    }
  }
}
