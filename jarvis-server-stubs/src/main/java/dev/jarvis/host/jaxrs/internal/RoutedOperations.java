package dev.jarvis.host.jaxrs.internal;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.host.ProtocolHost;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operations the application routes to a resource method, as {@link OperationBinding} finds
 * them while the runtime builds its resource model, before the first request: what the binding
 * declares follows what the application serves. The {@code event-log} read is the one operation an
 * application may leave out (the generated interfaces hold the spec's operations only, so a host
 * built on them has no resource for it unless it adds {@code EventLogApi}); where none routes it,
 * {@code event-log} is not declared in {@code Jarvis-Host-Capabilities}, whatever the host's
 * configuration says, and a request requiring it is refused {@code unsupported_capability}.
 */
public final class RoutedOperations {

  private final Set<String> routed = ConcurrentHashMap.newKeySet();

  void add(ProtocolOperation operation) {
    routed.add(operation.operationId());
  }

  /** Whether a resource method of the application serves {@code operation}. */
  public boolean routes(ProtocolOperation operation) {
    return routed.contains(operation.operationId());
  }

  /**
   * The capabilities the application serves: the host's, without {@code event-log} and {@code
   * event-stream} (its live form) where no resource method routes the read, and without {@code
   * request-inbox} where none routes that read.
   */
  public Set<String> served(ProtocolHost host) {
    Set<String> served = new TreeSet<>(host.config().capabilities());
    if (!routes(EventLog.OPERATION)) {
      served.remove(EventLog.CAPABILITY);
      served.remove(dev.jarvis.core.eventlog.EventStream.CAPABILITY);
    }
    if (!routes(RequestInbox.OPERATION)) {
      served.remove(RequestInbox.CAPABILITY);
    }
    return served;
  }

  /**
   * The host's protocol headers, with {@code Jarvis-Host-Capabilities} naming only what the
   * application serves (absent where that is nothing).
   */
  public Map<String, String> protocolHeaders(ProtocolHost host) {
    Map<String, String> headers = new LinkedHashMap<>(host.protocolHeaders());
    Set<String> served = served(host);
    if (served.isEmpty()) {
      headers.remove(JarvisHeaders.HOST_CAPABILITIES);
    } else {
      headers.put(JarvisHeaders.HOST_CAPABILITIES, String.join(", ", served));
    }
    return headers;
  }
}
