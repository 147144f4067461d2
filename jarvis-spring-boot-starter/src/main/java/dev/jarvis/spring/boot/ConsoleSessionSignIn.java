package dev.jarvis.spring.boot;

import dev.jarvis.console.SessionCaller;
import dev.jarvis.host.Principal;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.DeferredCsrfToken;
import org.springframework.security.web.csrf.XorCsrfTokenRequestAttributeHandler;

/**
 * The review console's sign-in through the service's own login under {@code
 * jarvis.host.auth=spring-security}: a request to the console's API that carries no bearer token
 * but that the service's filter chain authenticated (form login, a session cookie) is a {@link
 * SessionCaller}. The console then acts with the same session towards the host (its {@code Cookie}
 * goes on, so the chain authenticates the host's calls as it did this one) and answers a
 * state-changing call only when the request carried the session's CSRF token.
 *
 * <p>The token is Spring Security's own: the one its {@code CsrfFilter} keeps for the session
 * ({@link DeferredCsrfToken}, put on every request the filter passes). It is checked here too, not
 * only by the filter, so that a chain that leaves the console's path out of CSRF protection still
 * has it: the raw token, or the XOR-masked form Spring Security hands out by default, in the header
 * the token names. A chain with CSRF protection off has no such token, and then no session signs in
 * to the console (a bearer token still does).
 */
final class ConsoleSessionSignIn implements Function<HttpServletRequest, Optional<SessionCaller>> {

  private final SpringSecurityHostAuth auth;
  private final XorCsrfTokenRequestAttributeHandler masked =
      new XorCsrfTokenRequestAttributeHandler();

  ConsoleSessionSignIn(SpringSecurityHostAuth auth) {
    this.auth = auth;
  }

  @Override
  public Optional<SessionCaller> apply(HttpServletRequest request) {
    if (request.getHeader("Authorization") != null) {
      return Optional.empty(); // a bearer token: the console forwards it, no session involved
    }
    Optional<Principal> principal =
        auth.principalOf(SecurityContextHolder.getContext().getAuthentication());
    if (principal.isEmpty()
        || !(request.getAttribute(DeferredCsrfToken.class.getName())
            instanceof DeferredCsrfToken deferred)) {
      return Optional.empty();
    }
    CsrfToken kept = deferred.get();
    // What the page is given: the form the service's CSRF handler hands out (masked by default).
    String handedOut =
        request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken token
            ? token.getToken()
            : kept.getToken();
    String sent = request.getHeader(kept.getHeaderName());
    Map<String, String> forward = new LinkedHashMap<>();
    String cookies = String.join("; ", Collections.list(request.getHeaders("Cookie")));
    if (!cookies.isEmpty()) {
      forward.put("Cookie", cookies);
    }
    if (sent != null) {
      forward.put(kept.getHeaderName(), sent);
    }
    return Optional.of(
        new SessionCaller(
            principal.get().actorIds(),
            kept.getHeaderName(),
            handedOut,
            sent != null && valid(request, kept),
            forward));
  }

  /** Whether the header holds the session's token, raw or masked; compared in constant time. */
  private boolean valid(HttpServletRequest request, CsrfToken kept) {
    String sent = request.getHeader(kept.getHeaderName());
    if (same(sent, kept.getToken())) {
      return true;
    }
    // The handler would fall back to a request parameter, which would read a form's body: the
    // console takes the token from the header only.
    HttpServletRequest headerOnly =
        new HttpServletRequestWrapper(request) {
          @Override
          public String getParameter(String name) {
            return null;
          }
        };
    return same(masked.resolveCsrfTokenValue(headerOnly, kept), kept.getToken());
  }

  private static boolean same(String a, String b) {
    return a != null
        && b != null
        && MessageDigest.isEqual(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
