package dev.jarvis.console;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A caller the service signed in with its own login (a session cookie, not a bearer token), as the
 * binding found it on one request. The console acts for it by sending the same session on to the
 * host ({@link #forward()}), so the service's security decides who it is there too, exactly as for
 * a request of the browser; and it answers a state-changing call only when the request carried the
 * service's CSRF token ({@link #csrfTokenSent()}), which a cross-site page cannot read or send.
 *
 * @param actorIds the Actors the service's login may act as, for the page to offer (the host still
 *     decides each call)
 * @param csrfHeader the header the page sends the CSRF token in (Spring Security's {@code
 *     X-CSRF-TOKEN} by default)
 * @param csrfToken the token the page sends, handed to it only in the answer of a same-origin read
 * @param csrfTokenSent whether this request carried the valid token in {@code csrfHeader}
 * @param forward the headers that carry the session to the host: its cookie and, when sent, the
 *     CSRF header (never logged)
 */
public record SessionCaller(
    Set<String> actorIds,
    String csrfHeader,
    String csrfToken,
    boolean csrfTokenSent,
    Map<String, String> forward) {

  public SessionCaller {
    actorIds = Set.copyOf(actorIds);
    Objects.requireNonNull(csrfHeader, "csrfHeader");
    Objects.requireNonNull(csrfToken, "csrfToken");
    forward = Map.copyOf(forward);
  }

  /** Said without the token or the cookie. */
  @Override
  public String toString() {
    return "SessionCaller[actorIds=" + actorIds + ", csrfTokenSent=" + csrfTokenSent + "]";
  }
}
