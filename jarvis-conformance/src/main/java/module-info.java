/** The conformance suite: checks any Jarvis host over HTTP against the spec. */
module dev.jarvis.conformance {
  requires transitive dev.jarvis.model;
  requires java.net.http;

  exports dev.jarvis.conformance;
}
