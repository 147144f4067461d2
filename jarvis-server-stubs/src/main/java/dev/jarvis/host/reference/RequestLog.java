package dev.jarvis.host.reference;

import dev.jarvis.core.headers.JarvisHeaders;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.lang.System.Logger.Level;

/**
 * One log line per request: method, path, status and acting Actor. It never logs headers other than
 * {@code Jarvis-Actor-Id}, so no credential reaches the log, and never bodies.
 */
final class RequestLog implements ContainerResponseFilter {

  static final System.Logger LOG = System.getLogger("dev.jarvis.host.reference.requests");

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (!LOG.isLoggable(Level.INFO)) {
      return;
    }
    String actor = request.getHeaderString(JarvisHeaders.ACTOR_ID);
    LOG.log(
        Level.INFO,
        "{0} /{1} {2} actor={3}",
        request.getMethod(),
        request.getUriInfo().getPath(),
        response.getStatus(),
        actor == null ? "-" : sanitized(actor));
  }

  /** Header text is client input: keep it to one short printable line. */
  private static String sanitized(String text) {
    String printable = text.replaceAll("[^\\x21-\\x7e]", "?");
    return printable.length() > 160 ? printable.substring(0, 160) + "…" : printable;
  }
}
