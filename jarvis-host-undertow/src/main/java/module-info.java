/** The thin Undertow binding: {@code ProtocolHandler} hands each request to a {@code ProtocolHost}. */
module dev.jarvis.host.undertow {
  // The API is an Undertow HttpHandler over the host kit's ProtocolHost.
  requires transitive dev.jarvis.host;
  requires transitive undertow.core;
  requires xnio.api;

  exports dev.jarvis.host.undertow;
}
