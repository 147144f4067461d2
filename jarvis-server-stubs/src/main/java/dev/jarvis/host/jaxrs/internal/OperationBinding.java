package dev.jarvis.host.jaxrs.internal;

import dev.jarvis.host.ProtocolHost;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Binds the request guard and the protocol response headers to each resource method that implements
 * a method of a generated interface, and to nothing else in the application; notes each operation
 * it binds in {@link RoutedOperations}.
 */
public final class OperationBinding implements DynamicFeature {

  private final ProtocolHost host;
  private final RoutedOperations routes;

  public OperationBinding(ProtocolHost host, RoutedOperations routes) {
    this.host = host;
    this.routes = routes;
  }

  @Override
  public void configure(ResourceInfo resource, FeatureContext context) {
    JarvisScope.operationOf(resource.getResourceClass(), resource.getResourceMethod())
        .ifPresent(
            op -> {
              routes.add(op);
              context.register(new ProtocolRequestFilter(host, op, routes));
              context.register(new CheckedEntityInterceptor());
            });
  }
}
