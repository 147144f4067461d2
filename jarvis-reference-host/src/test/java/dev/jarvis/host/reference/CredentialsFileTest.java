package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jarvis.host.Credentials;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The reference host's {@code --credentials FILE}: tokens bound to Actors, held as hashes. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class CredentialsFileTest {

  @TempDir Path dir;

  private Path file(String json) throws IOException {
    Path f = dir.resolve("credentials.json");
    Files.writeString(f, json);
    return f;
  }

  private static int status(ReferenceHost host, String token, String actor) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(host.baseUri() + "work-sessions/ws-none"))
            .header("Authorization", "Bearer " + token)
            .header("Jarvis-Protocol-Version", "v0.1")
            .header("Jarvis-Actor-Id", actor)
            .GET()
            .build();
    return HttpClient.newHttpClient()
        .send(request, HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  @Test
  void a_token_of_the_file_acts_only_as_its_actors_and_an_unknown_token_is_401() throws Exception {
    Path f =
        file(
            """
            [{"token_sha256": "%s", "actors": ["actor-human-001"], "admin": false}]
            """
                .formatted(Credentials.sha256Hex("the-humans-token")));
    try (ReferenceHost host =
        ReferenceHost.start(ReferenceHostConfig.builder().auth(Credentials.fromJson(f)).build())) {
      // Unregistered Actor, but the credential may name it: the Actor check answers 400.
      assertEquals(400, status(host, "the-humans-token", "actor-human-001"));
      assertEquals(400, status(host, "the-humans-token", "actor-agent-001"));
      assertEquals(401, status(host, "another-token", "actor-human-001"));
    }
  }

  @Test
  void the_file_holds_no_token_in_clear() throws Exception {
    String hash = Credentials.sha256Hex("the-humans-token");
    Path f = file("[{\"token_sha256\": \"" + hash + "\", \"actors\": [\"a\"], \"admin\": true}]");
    assertFalse(Files.readString(f).contains("the-humans-token"));
    assertFalse(Credentials.fromJson(f).toString().contains(hash));
  }

  @ParameterizedTest(name = "a credentials file {0} is refused at start-up")
  @ValueSource(
      strings = {
        "{}",
        "[{\"token_sha256\": \"ABC\", \"actors\": [], \"admin\": false}]",
        "[{\"token_sha256\": \"%s\", \"actors\": \"a\", \"admin\": false}]",
        "[{\"token_sha256\": \"%s\", \"actors\": [\"a\"], \"admin\": \"yes\"}]",
        "[{\"token\": \"clear\", \"actors\": [\"a\"]}]"
      })
  void a_malformed_credentials_file_is_refused(String json) throws IOException {
    Path f = file(json.formatted(Credentials.sha256Hex("x")));
    assertThrows(IllegalArgumentException.class, () -> Credentials.fromJson(f));
  }
}
