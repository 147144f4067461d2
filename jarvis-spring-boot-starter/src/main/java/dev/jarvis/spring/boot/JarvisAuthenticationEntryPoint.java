package dev.jarvis.spring.boot;

import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.servlet.JarvisServlet;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;

/**
 * For the service's filter chain on the Jarvis path (with {@code
 * jarvis.host.auth=spring-security}): a request whose credential the chain refuses (a JWT with a
 * bad signature, expired) is answered by the host as if it carried no caller, so the protocol's
 * caller gets a {@code ProtocolError} (401 {@code unauthorized_actor}, as a credentials-file host
 * answers a token it does not accept) and not the chain's own answer. Set it in the chain that
 * matches {@code jarvis.host.path} only: {@code .oauth2ResourceServer(o ->
 * o.jwt(...).authenticationEntryPoint(jarvisEntryPoint))}; on another path it would answer with the
 * protocol's errors too.
 */
public final class JarvisAuthenticationEntryPoint implements AuthenticationEntryPoint {

  private final JarvisServlet servlet;

  public JarvisAuthenticationEntryPoint(ProtocolHost host) {
    this.servlet = new JarvisServlet(host);
  }

  @Override
  public void commence(
      HttpServletRequest request, HttpServletResponse response, AuthenticationException refused)
      throws IOException, ServletException {
    // No caller: the host's HostAuth finds no Authentication and refuses as for a missing one.
    // Every operation of the spec requires HostAuth, so the request goes no further than the
    // host's guard: nothing the chain refused reaches a rule or the store.
    SecurityContextHolder.clearContext();
    servlet.service(request, response);
  }
}
