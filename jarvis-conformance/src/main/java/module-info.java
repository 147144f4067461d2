/** The conformance suite: checks any Jarvis host over HTTP against the spec. */
module dev.jarvis.conformance {
  requires transitive dev.jarvis.model;
  requires java.net.http;
  // The checks send their bytes through the client's raw transport.
  requires dev.jarvis.client;

  exports dev.jarvis.conformance;
}
