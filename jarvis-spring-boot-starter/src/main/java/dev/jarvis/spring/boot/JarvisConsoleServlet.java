package dev.jarvis.spring.boot;

import dev.jarvis.console.Console;
import dev.jarvis.console.ConsoleAnswer;
import dev.jarvis.host.ProtocolHost;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serial;
import java.net.URI;
import java.util.Optional;

/**
 * The review console ({@code jarvis-console}) in the service, at {@code jarvis.host.path}{@code
 * /console/}: {@link Console} decides every answer (the page, its headers, its API acting as the
 * signed-in human through the client against this host), this writes it. The console's API forwards
 * only the caller's {@code Authorization} and {@code Jarvis-Actor-Id}, never a cookie, so a session
 * cookie never authenticates it and a cross-site request carries no credential.
 */
public final class JarvisConsoleServlet extends HttpServlet {

  @Serial private static final long serialVersionUID = 1L;

  private final transient ProtocolHost host;
  private final String path;
  private final transient Optional<URI> hostUri;
  private transient volatile Console console;

  /**
   * @param host the host whose clock the console's requests are stamped with
   * @param path {@code jarvis.host.path}, e.g. {@code /jarvis}
   * @param hostUri where the console's API reaches the protocol; empty: the address and port each
   *     request arrived on
   */
  public JarvisConsoleServlet(ProtocolHost host, String path, Optional<URI> hostUri) {
    this.host = host;
    this.path = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    this.hostUri = hostUri;
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
      known = Console.forHost(context + path + "/console", protocol, host.config().clock());
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
            body);
    response.setStatus(answer.status());
    answer.headers().forEach(response::setHeader);
    byte[] bytes = answer.body();
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }
}
