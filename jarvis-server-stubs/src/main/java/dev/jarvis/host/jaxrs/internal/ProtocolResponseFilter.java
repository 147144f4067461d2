package dev.jarvis.host.jaxrs.internal;

import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.ProtocolHost;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.util.Map;

/**
 * Gives every protocol response, success or error, mapped or aborted, the protocol headers, with
 * the capabilities the application serves ({@link RoutedOperations}); the application's other
 * responses are left as they are.
 */
public final class ProtocolResponseFilter implements ContainerResponseFilter {

  private final ProtocolHost host;
  private final boolean ownsApplication;
  private final RoutedOperations routes;

  public ProtocolResponseFilter(
      ProtocolHost host, boolean ownsApplication, RoutedOperations routes) {
    this.host = host;
    this.ownsApplication = ownsApplication;
    this.routes = routes;
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (JarvisScope.covers(request, ownsApplication)) {
      Map<String, String> headers = routes.protocolHeaders(host);
      headers.forEach((name, value) -> response.getHeaders().putSingle(name, value));
      if (!headers.containsKey(JarvisHeaders.HOST_CAPABILITIES)) {
        response.getHeaders().remove(JarvisHeaders.HOST_CAPABILITIES);
      }
    }
  }
}
