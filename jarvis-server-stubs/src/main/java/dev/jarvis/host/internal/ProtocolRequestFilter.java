package dev.jarvis.host.internal;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.headers.HeaderLookup;
import dev.jarvis.host.JarvisHostFeature;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.ProtocolRefusal;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * The request guard of one operation. Reads the body bytes first (and puts them back for entity
 * binding), so hashes and fingerprints use what travelled, and payload rules see the raw JSON
 * before Jackson binds it.
 */
@Priority(Priorities.AUTHENTICATION)
final class ProtocolRequestFilter implements ContainerRequestFilter {

  private final ProtocolHost host;
  private final ProtocolOperation operation;

  ProtocolRequestFilter(ProtocolHost host, ProtocolOperation operation) {
    this.host = host;
    this.operation = operation;
  }

  @Override
  public void filter(ContainerRequestContext request) throws IOException {
    byte[] body = new byte[0];
    if (request.hasEntity()) {
      try (InputStream in = request.getEntityStream()) {
        // One byte past the limit is enough to know it is too big.
        body = in.readNBytes(RequestGuard.MAX_BODY_BYTES + 1);
      }
    }
    request.setEntityStream(new ByteArrayInputStream(body));
    Map<String, String> path = new HashMap<>();
    request
        .getUriInfo()
        .getPathParameters()
        .forEach((name, values) -> path.put(name, values.get(0)));
    try {
      ProtocolCall call =
          host.check(operation, HeaderLookup.ofLists(request.getHeaders()), path, body);
      request.setProperty(JarvisHostFeature.CALL_PROPERTY, call);
      request.setProperty(JarvisHostFeature.HOST_PROPERTY, host);
    } catch (ProtocolRefusal refusal) {
      request.abortWith(JarvisHostFeature.toResponse(host.refusal(refusal)));
    }
  }
}
