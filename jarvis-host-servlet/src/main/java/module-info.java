/** The Servlet binding: {@code JarvisServlet} hands each request to a {@code ProtocolHost}. */
module dev.jarvis.host.servlet {
  // The API is a Servlet over the host kit's ProtocolHost; the container brings jakarta.servlet.
  requires transitive dev.jarvis.host;
  requires transitive jakarta.servlet;

  exports dev.jarvis.host.servlet;
}
