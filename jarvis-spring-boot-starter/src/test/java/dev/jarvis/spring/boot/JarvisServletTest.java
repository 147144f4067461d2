package dev.jarvis.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.servlet.JarvisServlet;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The host kit as a servlet answers below its mapping as the protocol says, with no JAX-RS runtime:
 * the path within the mapping is the protocol's path, and an oversized body is refused by the guard
 * and ends the connection instead of being read on.
 */
class JarvisServletTest {

  private final JarvisServlet servlet =
      new JarvisServlet(new ProtocolHost(HostConfig.builder(HostAuth.bearer("t")).build()));

  @Test
  void aPathNoOperationHasIsAProtocolErrorAndTheConnectionStays() throws Exception {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/jarvis/nowhere");
    request.setServletPath("/jarvis");
    request.setPathInfo("/nowhere");
    MockHttpServletResponse response = new MockHttpServletResponse();

    servlet.service(request, response);

    assertEquals(404, response.getStatus());
    assertTrue(
        response.getContentAsString().contains("\"error_id\""), response.getContentAsString());
    assertNull(response.getHeader("Connection"));
  }

  @Test
  void aBodyPastTheLimitIsRefusedAndTheConnectionCloses() throws Exception {
    MockHttpServletRequest request = new MockHttpServletRequest("PUT", "/jarvis/workers/w-1");
    request.setServletPath("/jarvis");
    request.setPathInfo("/workers/w-1");
    request.addHeader("Authorization", "Bearer t");
    request.setContent(new byte[ProtocolHost.MAX_BODY_BYTES + 10]);
    MockHttpServletResponse response = new MockHttpServletResponse();

    servlet.service(request, response);

    assertTrue(
        response.getStatus() >= 400 && response.getStatus() < 500, "" + response.getStatus());
    assertEquals("close", response.getHeader("Connection"));
  }
}
