package dev.jarvis.spring.boot;

import dev.jarvis.console.Console;
import dev.jarvis.console.ConsoleAnswer;
import dev.jarvis.console.SessionCaller;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.RequestPolicyEvaluation;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serial;
import java.net.URI;
import java.util.Optional;
import java.util.function.Function;

/**
 * The review console ({@code jarvis-console}) in the service, at {@code jarvis.host.path}{@code
 * /console/}: {@link Console} decides every answer (the page, its headers, its API acting as the
 * signed-in human through the client against this host), this writes it. With each Request it shows
 * the rule of the WorkSession's Policy that required the review, evaluated by this host ({@link
 * RequestPolicyEvaluation}).
 *
 * <p>The console's API forwards the caller's {@code Authorization} and {@code Jarvis-Actor-Id}. A
 * session cookie authenticates it only where the service's own login is the console's sign-in
 * ({@code jarvis.host.auth=spring-security}: {@code sessions} finds the signed-in session, and
 * every state-changing call then needs the session's CSRF token); otherwise the cookie is never
 * sent on.
 */
public final class JarvisConsoleServlet extends HttpServlet {

  @Serial private static final long serialVersionUID = 1L;

  private final transient ProtocolHost host;
  private final String path;
  private final transient Optional<URI> hostUri;
  private final transient Function<HttpServletRequest, Optional<SessionCaller>> sessions;
  private transient volatile Console console;

  /**
   * @param host the host whose clock the console's requests are stamped with
   * @param path {@code jarvis.host.path}, e.g. {@code /jarvis}
   * @param hostUri where the console's API reaches the protocol; empty: the address and port each
   *     request arrived on
   */
  public JarvisConsoleServlet(ProtocolHost host, String path, Optional<URI> hostUri) {
    this(host, path, hostUri, request -> Optional.empty());
  }

  /**
   * As {@link #JarvisConsoleServlet(ProtocolHost, String, Optional)}, signing in the sessions of
   * the service's own login that {@code sessions} finds on a request (empty: none).
   */
  public JarvisConsoleServlet(
      ProtocolHost host,
      String path,
      Optional<URI> hostUri,
      Function<HttpServletRequest, Optional<SessionCaller>> sessions) {
    this.host = host;
    this.path = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    this.hostUri = hostUri;
    this.sessions = sessions;
  }

  private Console console(HttpServletRequest request) {
    Console known = console;
    if (known == null) {
      String context = request.getContextPath();
      URI protocol =
          hostUri.orElseGet(
              () -> {
                String address = request.getLocalAddr();
                String hostPart = address.contains(":") ? "[" + address + "]" : address;
                return URI.create(
                    "http://" + hostPart + ":" + request.getLocalPort() + context + path + "/");
              });
      known =
          Console.forHost(context + path + "/console", protocol, host.config().clock())
              .withReviewRules(RequestPolicyEvaluation.of(host)::of);
      console = known;
    }
    return known;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Console serving = console(request);
    String uri = request.getRequestURI();
    byte[] body;
    try (InputStream in = request.getInputStream()) {
      body = in.readNBytes(Console.MAX_BODY_BYTES + 1);
    }
    ConsoleAnswer answer =
        serving.answer(
            request.getMethod(),
            uri,
            Optional.ofNullable(request.getQueryString()),
            name -> Optional.ofNullable(request.getHeader(name)),
            body,
            sessions.apply(request));
    response.setStatus(answer.status());
    answer.headers().forEach(response::setHeader);
    byte[] bytes = answer.body();
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }
}
