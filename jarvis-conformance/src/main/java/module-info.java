/** The conformance suite: checks any Jarvis host over HTTP against the spec. */
module dev.jarvis.conformance {
  requires transitive dev.jarvis.model;
  requires java.net.http;
  // The checks send their bytes through the client's raw transport.
  requires dev.jarvis.client;
  // The suite sends the SDK's sample records and assumes its sample Policy by default.
  requires dev.jarvis.samples;

  exports dev.jarvis.conformance;
}
