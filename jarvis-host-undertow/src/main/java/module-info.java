/**
 * The thin Undertow binding: {@code ProtocolHandler} hands each request to a {@code ProtocolHost}.
 */
// Undertow and XNIO carry no module names: undertow.core and xnio.api are derived from the jars'
// file names (undertow-core-*.jar, xnio-api-*.jar), the only names a module can require them by.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.jarvis.host.undertow {
  // The API is an Undertow HttpHandler over the host kit's ProtocolHost.
  requires transitive dev.jarvis.host;
  requires transitive undertow.core;
  requires xnio.api;

  exports dev.jarvis.host.undertow;
}
