/**
 * The Jarvis client: {@code JarvisClient}, one pipeline of named policies over {@code
 * java.net.http}, typed by the generated model; and the generated client API published beside it.
 *
 * <p>{@code dev.jarvis.client.internal} (the built-in policies and the pipeline that runs them) is
 * not exported: user code extends the client through {@code dev.jarvis.client.pipeline}.
 */
module dev.jarvis.client {
  // The API answers the model's records and JsonNode, and java.net.http's HttpHeaders.
  requires transitive dev.jarvis.model;
  requires transitive java.net.http;
  // The generated invoker registers Jackson's java.time support.
  requires com.fasterxml.jackson.datatype.jsr310;

  exports dev.jarvis.client;
  exports dev.jarvis.client.audit;
  exports dev.jarvis.client.governed;
  exports dev.jarvis.client.pipeline;
  exports dev.jarvis.client.raw;
  exports dev.jarvis.client.tools;
  // Generated from the spec (target/generated-sources): the generator's own client API, published
  // beside JarvisClient (docs/client.md).
  exports dev.jarvis.client.generated.api;
  exports dev.jarvis.client.generated.invoker;
}
