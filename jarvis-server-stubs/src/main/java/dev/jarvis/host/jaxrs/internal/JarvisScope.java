package dev.jarvis.host.jaxrs.internal;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.host.OperationRoutes;
import dev.jarvis.host.jaxrs.EventLogApi;
import dev.jarvis.host.jaxrs.RequestInboxApi;
import dev.jarvis.host.jaxrs.ServerOperation;
import dev.jarvis.host.jaxrs.ServerOperations;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.UriInfo;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which requests are the protocol's, so that the binding touches nothing else in an application it
 * shares: a resource method that implements a method of a generated interface, or, for a request no
 * resource matched, a path of the spec (relative to the application's base, so a binding mounted
 * under a prefix still knows its own).
 */
public final class JarvisScope {

  private static final OperationRoutes ROUTES = new OperationRoutes();

  private static final Method EVENT_LOG_METHOD = EventLogApi.class.getMethods()[0];

  private static final Method INBOX_METHOD = RequestInboxApi.class.getMethods()[0];

  private JarvisScope() {}

  /**
   * The spec operation a resource method implements: it overrides a method of a generated
   * interface. Matching on the generated interface, never on a Java method name, keeps an
   * application's own {@code registerWorker} method out of the protocol.
   */
  public static Optional<ProtocolOperation> operationOf(Class<?> resourceClass, Method method) {
    for (ServerOperation op : ServerOperations.all()) {
      if (op.api().isAssignableFrom(resourceClass)
          && op.method().getName().equals(method.getName())
          && Arrays.equals(op.method().getParameterTypes(), method.getParameterTypes())) {
        return Optional.of(ProtocolOperations.byId(op.operationId()));
      }
    }
    if (EventLogApi.class.isAssignableFrom(resourceClass)
        && EVENT_LOG_METHOD.getName().equals(method.getName())
        && Arrays.equals(EVENT_LOG_METHOD.getParameterTypes(), method.getParameterTypes())) {
      return Optional.of(EventLog.OPERATION);
    }
    if (RequestInboxApi.class.isAssignableFrom(resourceClass)
        && INBOX_METHOD.getName().equals(method.getName())
        && Arrays.equals(INBOX_METHOD.getParameterTypes(), method.getParameterTypes())) {
      return Optional.of(RequestInbox.OPERATION);
    }
    return Optional.empty();
  }

  /** Whether a request belongs to the protocol: it matched a Jarvis resource, or a spec path. */
  public static boolean covers(ContainerRequestContext request, boolean ownsApplication) {
    return ownsApplication || covers(request.getUriInfo());
  }

  /**
   * As {@link #covers(ContainerRequestContext, boolean)}, from the request's URI information, for a
   * binding that shares its application.
   */
  public static boolean covers(UriInfo uri) {
    List<Object> matched = uri.getMatchedResources();
    if (!matched.isEmpty()) {
      return matched.get(0) instanceof EventLogApi
          || matched.get(0) instanceof RequestInboxApi
          || ServerOperations.all().stream().anyMatch(op -> op.api().isInstance(matched.get(0)));
    }
    // UriInfo's path is relative to the application's base and has no leading slash.
    String path = uri.getPath();
    return ROUTES.hasPath(path.startsWith("/") ? path : "/" + path);
  }
}
