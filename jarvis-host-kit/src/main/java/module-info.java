/**
 * The web-free host kit: {@code ProtocolHost} answers every protocol operation over a {@code
 * HostStores}; bindings hand it each request.
 *
 * <p>{@code dev.jarvis.host.internal} (the guard, the rules, the dispatch) is exported to no
 * module: what a binding needs of the host (such as {@code TraceParent}) is API in {@code
 * dev.jarvis.host}.
 */
module dev.jarvis.host {
  // The API takes and answers the model's records, JsonNode and the core's types.
  requires transitive dev.jarvis.model;

  exports dev.jarvis.host;
  exports dev.jarvis.host.notify;
}
