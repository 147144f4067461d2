package dev.jarvis.host.jaxrs.internal;

import dev.jarvis.host.ProtocolHost;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

/**
 * Gives every protocol response, success or error, mapped or aborted, the protocol headers; the
 * application's other responses are left as they are.
 */
public final class ProtocolResponseFilter implements ContainerResponseFilter {

  private final ProtocolHost host;
  private final boolean ownsApplication;

  public ProtocolResponseFilter(ProtocolHost host, boolean ownsApplication) {
    this.host = host;
    this.ownsApplication = ownsApplication;
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (JarvisScope.covers(request, ownsApplication)) {
      host.protocolHeaders().forEach((name, value) -> response.getHeaders().putSingle(name, value));
    }
  }
}
