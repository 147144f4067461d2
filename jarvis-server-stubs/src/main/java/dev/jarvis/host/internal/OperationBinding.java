package dev.jarvis.host.internal;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.host.ProtocolHost;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import java.util.Optional;

/**
 * Binds the request guard to each resource method that implements a spec operation, matched by
 * method name, which the generator takes from the operationId.
 */
public final class OperationBinding implements DynamicFeature {

  private final ProtocolHost host;

  public OperationBinding(ProtocolHost host) {
    this.host = host;
  }

  @Override
  public void configure(ResourceInfo resource, FeatureContext context) {
    operation(resource.getResourceMethod().getName())
        .ifPresent(op -> context.register(new ProtocolRequestFilter(host, op)));
  }

  private static Optional<ProtocolOperation> operation(String name) {
    return ProtocolOperations.all().stream()
        .filter(op -> op.operationId().equals(name))
        .findFirst();
  }
}
