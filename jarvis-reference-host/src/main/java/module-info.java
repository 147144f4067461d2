/**
 * The reference host: the host kit on the JDBC store, served by Undertow or by Jersey on the JDK's
 * HTTP server.
 */
module dev.jarvis.host.reference {
  requires transitive dev.jarvis.host;
  requires dev.jarvis.host.jaxrs;
  // ReferenceHostConfig carries the Undertow binding's HttpLimits.
  requires transitive dev.jarvis.host.undertow;
  requires dev.jarvis.store.jdbc;
  // The review console (serve --console): its page and its API, which acts through the client.
  requires dev.jarvis.console;
  // The demo governance assigns the sample Policy to every human.
  requires dev.jarvis.samples;
  requires jakarta.ws.rs;
  requires static jakarta.annotation;
  requires org.glassfish.jersey.core.server;
  requires org.glassfish.jersey.container.jdk.http;
  requires org.glassfish.jersey.media.json.jackson;
  requires jdk.httpserver;

  exports dev.jarvis.host.reference;

  // Jersey instantiates and injects the health resource and the request log filter.
  opens dev.jarvis.host.reference;
}
