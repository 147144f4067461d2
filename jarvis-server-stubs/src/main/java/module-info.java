/**
 * The JAX-RS binding: {@code JarvisHostFeature} registers the generated protocol interfaces'
 * resources over a {@code ProtocolHost} in any JAX-RS 3.1+ runtime.
 *
 * <p>{@code dev.jarvis.host.jaxrs.internal} (filters, exception mappers, the JSON resolver) is not
 * exported. It and the resources are opened (reflection only, no compile-time access): the JAX-RS
 * runtime, whichever the application brings (Jersey, RESTEasy, ...), injects and invokes them.
 */
module dev.jarvis.host.jaxrs {
  // The API hands a JAX-RS Feature over the host kit's ProtocolHost.
  requires transitive dev.jarvis.host;
  requires transitive jakarta.ws.rs;
  // @Priority on the filters.
  requires static jakarta.annotation;

  exports dev.jarvis.host.jaxrs;
  exports dev.jarvis.host.jaxrs.resources;
  // Generated from the spec (target/generated-sources): the JAX-RS interfaces the resources
  // implement; ServerOperations reads their annotations.
  exports dev.jarvis.server.generated.api;

  opens dev.jarvis.host.jaxrs.internal;
  opens dev.jarvis.host.jaxrs.resources;
  opens dev.jarvis.server.generated.api;
}
