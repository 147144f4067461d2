package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.matching.RequestPatternBuilder.allRequests;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class UserAgentTest {

  @RegisterExtension final ClientFixture host = new ClientFixture();

  /** Set by the module's surefire configuration from the POM's project.version. */
  private static final String POM_VERSION = System.getProperty("jarvis.project.version");

  @Test
  void theUserAgentNamesTheVersionThePomDeclares() {
    assertFalse(POM_VERSION == null || POM_VERSION.isBlank(), "jarvis.project.version not set");

    host.client.getWorkSession(ClientFixture.SESSION);

    LoggedRequest r = host.wireMock.findAll(allRequests()).get(0);
    assertEquals("jarvis-java-sdk/" + POM_VERSION, r.getHeader("User-Agent"));
  }
}
