package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.internal.BuiltInPipeline;
import java.net.http.HttpClient;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/**
 * A client sets up TLS only for an {@code https} host: the JVM's default TLS was most of a cold
 * {@code create}, and a client talks to its one host without following redirects.
 */
class TlsSetUpTest {

  @Test
  void aPlainHttpClientSetsUpNoTlsAndSaysWhyIfAskedForIt() throws Exception {
    HttpClient http = BuiltInPipeline.httpClient(options("http://127.0.0.1:9"));

    SSLContext none = http.sslContext();
    assertNotEquals(SSLContext.getDefault(), none);
    UnsupportedOperationException e =
        assertThrows(UnsupportedOperationException.class, none::createSSLEngine);
    assertTrue(e.getMessage().contains("plain-http host"), e.getMessage());
  }

  @Test
  void anHttpsClientKeepsTheJvmsDefaultTls() throws Exception {
    HttpClient https = BuiltInPipeline.httpClient(options("https://host.example"));

    assertEquals(SSLContext.getDefault(), https.sslContext());
  }

  private static JarvisClientOptions options(String baseUri) {
    return JarvisClientOptions.builder().baseUri(baseUri).actorId("actor-agent-1").build();
  }
}
