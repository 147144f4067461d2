/**
 * The web-free host kit: {@code ProtocolHost} answers every protocol operation over a {@code
 * HostStores}; bindings hand it each request.
 *
 * <p>{@code dev.jarvis.host.internal} (the guard, the rules, the dispatch) is not exported to
 * users. The Spring Boot starter alone reads it, for {@code TraceParent} (its request observer logs
 * the W3C trace id the host parsed); that qualified export is the only one and goes when
 * TraceParent moves to the API.
 */
// "module": dev.jarvis.spring.boot is built after this module, so javac cannot see it here.
@SuppressWarnings("module")
module dev.jarvis.host {
  // The API takes and answers the model's records, JsonNode and the core's types.
  requires transitive dev.jarvis.model;

  exports dev.jarvis.host;
  exports dev.jarvis.host.notify;
  exports dev.jarvis.host.internal to
      dev.jarvis.spring.boot;
}
