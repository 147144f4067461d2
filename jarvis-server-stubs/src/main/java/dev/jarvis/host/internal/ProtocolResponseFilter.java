package dev.jarvis.host.internal;

import dev.jarvis.host.ProtocolHost;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

/** Gives every response, success or error, mapped or aborted, the protocol headers. */
public final class ProtocolResponseFilter implements ContainerResponseFilter {

  private final ProtocolHost host;

  public ProtocolResponseFilter(ProtocolHost host) {
    this.host = host;
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    host.protocolHeaders().forEach((name, value) -> response.getHeaders().putSingle(name, value));
  }
}
