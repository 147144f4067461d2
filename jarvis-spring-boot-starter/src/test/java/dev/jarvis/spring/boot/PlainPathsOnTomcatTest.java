package dev.jarvis.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.signature.ActorKey;
import dev.jarvis.core.signature.SigningKey;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The starter's path-like properties on a real embedded Tomcat, where Spring resolves a plain
 * location against the servlet context: a plain path is still a file relative to the working
 * directory (here the module's, where Maven runs the tests), as documented, and {@code classpath:}
 * and {@code file:} still mean what they say. An {@code ApplicationContextRunner} has no servlet
 * context, which is how this went unseen.
 */
@SpringBootTest(
    classes = PlainPathsOnTomcatTest.Service.class,
    webEnvironment = WebEnvironment.RANDOM_PORT)
class PlainPathsOnTomcatTest {

  /**
   * Relative, so resolved against the working directory by the test (through {@link Path}) and by
   * the starter alike, wherever the tests run; under target/ so that {@code clean} removes it.
   */
  static final Path DIR = Path.of("target", "plain-paths-" + UUID.randomUUID());

  static final String TOKEN = "plain-paths-token-" + UUID.randomUUID();
  static final String HUMAN = "actor-human-plain-1";
  static final String SIGNER = "actor-signer-plain-1";

  /**
   * A service on Tomcat; Spring Security is on the test class path (for another test), so its chain
   * lets every request through to the host, which decides.
   */
  @SpringBootConfiguration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class Service {

    @Bean
    SecurityFilterChain open(HttpSecurity http) throws Exception {
      return http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
          .csrf(csrf -> csrf.disable())
          .build();
    }
  }

  @Autowired WebServerApplicationContext context;
  @Autowired JarvisHostProperties properties;
  @Autowired ProtocolHost host;

  @DynamicPropertySource
  static void plainPaths(DynamicPropertyRegistry registry) throws IOException {
    // Not createDirectories' answer: it may be the absolute path.
    Path config = DIR.resolve("config");
    Files.createDirectories(config);
    Files.writeString(
        config.resolve("jarvis-credentials.json"),
        "[{\"token_sha256\": \""
            + Credentials.sha256Hex(TOKEN)
            + "\", \"actors\": [\""
            + HostConfig.DEFAULT_ADMIN_ACTOR_ID
            + "\", \""
            + HUMAN
            + "\"], \"admin\": true}]");
    Files.writeString(config.resolve("actor-keys.json"), actorKeys(SIGNER));
    Files.writeString(config.resolve("policy.json"), SampleRecords.policy().toString());
    registry.add("jarvis.host.credentials-file", () -> text(config, "jarvis-credentials.json"));
    registry.add("jarvis.host.actor-keys-file", () -> text(config, "actor-keys.json"));
    registry.add("jarvis.host.policies", () -> text(config, "policy.json"));
    registry.add("jarvis.host.store.data-dir", () -> DIR.resolve("data").toString());
    // Each run's human Worker is new: the one Policy governs every human (#37).
    registry.add("jarvis.host.policy-assignments[0]", () -> "policy-bounded-001=*");
  }

  /** The file's path as a service writes it in its properties: relative, no prefix. */
  private static String text(Path dir, String file) {
    String path = dir.resolve(file).toString();
    assertThat(Path.of(path).isAbsolute()).isFalse();
    return path;
  }

  static String actorKeys(String mustSign) {
    String key = ActorKey.encode(SigningKey.generateKeyPair().getPublic());
    return "{\"keys\": [{\"key_id\": \"k-plain-1\", \"actor_id\": \""
        + mustSign
        + "\", \"public_key\": \""
        + key
        + "\"}], \"must_sign\": [\""
        + mustSign
        + "\"]}";
  }

  @Test
  void everyPlainPathIsAFileRelativeToTheWorkingDirectoryOnTomcat() throws IOException {
    assertThat(context.getWebServer().getClass().getSimpleName()).isEqualTo("TomcatWebServer");
    assertThat(properties.getCredentialsFile().getFile().toPath().toAbsolutePath())
        .isEqualTo(DIR.resolve("config/jarvis-credentials.json").toAbsolutePath());
    assertThat(properties.getActorKeysFile().getFile().toPath().toAbsolutePath())
        .isEqualTo(DIR.resolve("config/actor-keys.json").toAbsolutePath());
    assertThat(properties.getPolicies()).hasSize(1);
    assertThat(properties.getPolicies().get(0).getFile().toPath().toAbsolutePath())
        .isEqualTo(DIR.resolve("config/policy.json").toAbsolutePath());
    assertThat(properties.getStore().getDataDir().toAbsolutePath())
        .isEqualTo(DIR.resolve("data").toAbsolutePath());
    assertThat(host.config().actorKeys().mustSign(SIGNER)).isTrue();
  }

  @Test
  void theHostAnswersWithTheCredentialsAndPolicyOfThoseFiles() {
    int port = context.getWebServer().getPort();
    try (JarvisClient admin =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri("http://127.0.0.1:" + port + "/jarvis")
                .hostAuth("Bearer " + TOKEN)
                .actorId(HostConfig.DEFAULT_ADMIN_ACTOR_ID)
                .build())) {
      String id = UUID.randomUUID().toString();
      admin.registerWorker(admin.records().worker("w-human-" + id, WorkerType.HUMAN, "reviewer"));
      admin.registerWorker(admin.records().worker("w-agent-" + id, WorkerType.AGENT, "assistant"));
      admin.registerActor(admin.records().actor(HUMAN, "w-human-" + id, ActorType.HUMAN));
      JarvisClient human = admin.as(HUMAN);
      // A WorkSession under the Policy of the plain-path policy file: refused if it was not read.
      WorkSession session =
          human.createWorkSession(
              human
                  .records()
                  .workSession(
                      "Plain paths on Tomcat.",
                      "w-human-" + id,
                      "w-agent-" + id,
                      SampleRecords.policy().path("id").asText()));
      assertThat(session.getRevision()).isEqualTo(1L);
    }
  }

  @Test
  void classpathAndFilePrefixesStillMeanWhatTheySayOnTomcat() throws IOException {
    Path config = Files.createDirectories(DIR.resolve("prefixed"));
    Path keys = Files.writeString(config.resolve("actor-keys.json"), actorKeys(SIGNER));
    Path policy =
        Files.writeString(config.resolve("policy.json"), SampleRecords.policy().toString());
    try (ConfigurableApplicationContext prefixed =
        new SpringApplicationBuilder(Service.class)
            .properties(
                "server.port=0",
                "jarvis.host.credentials-file=classpath:jarvis/credentials.json",
                "jarvis.host.actor-keys-file=file:" + keys.toAbsolutePath(),
                "jarvis.host.policies=file:" + policy)
            .run()) {
      assertThat(((WebServerApplicationContext) prefixed).getWebServer().getPort()).isPositive();
      assertThat(((Credentials) prefixed.getBean(HostAuth.class)).size()).isEqualTo(1);
      assertThat(prefixed.getBean(ProtocolHost.class).config().actorKeys().mustSign(SIGNER))
          .isTrue();
    }
  }
}
