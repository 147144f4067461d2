package dev.jarvis.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import dev.jarvis.conformance.ActorCredential;
import dev.jarvis.conformance.ConformanceConfig;
import dev.jarvis.conformance.ConformanceReport;
import dev.jarvis.conformance.ConformanceSuite;
import dev.jarvis.conformance.RoleCredentials;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.web.SecurityFilterChain;

/**
 * {@code jarvis.host.auth=spring-security} behind a real Spring Security filter chain on Tomcat: a
 * JWT resource server (a key made here, {@link NimbusJwtDecoder#withPublicKey}) authenticates the
 * caller, and the host takes the Actors it may act as from the token's {@code jarvis_actors} claim
 * and the admin from its scope. The host's own rules still hold on top: a token listing one Actor
 * cannot act as another.
 */
class SpringSecurityHostAuthOnAFilterChainTest {

  /** The conformance run's prefix: the role tokens list Actors under it, made for this run. */
  static final String RUN = "conformance-jwt-1-";

  static KeyPair key;
  static NimbusJwtEncoder issuer;
  static ConfigurableApplicationContext service;
  static int port;

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  /** A service with its own security: every Jarvis request may come in; the host decides. */
  @SpringBootConfiguration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class SecuredService {

    @Bean
    JwtDecoder jwtDecoder() {
      return NimbusJwtDecoder.withPublicKey((RSAPublicKey) key.getPublic()).build();
    }

    @Bean
    SecurityFilterChain jarvisChain(HttpSecurity http, JarvisAuthenticationEntryPoint jarvis)
        throws Exception {
      return http.securityMatcher("/jarvis/**")
          .authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
          // Bearer tokens only, no session: no cookie can carry a caller into the protocol.
          .csrf(csrf -> csrf.disable())
          .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
          // A token the chain refuses is answered by the host, as one it does not accept.
          .oauth2ResourceServer(
              server -> server.jwt(Customizer.withDefaults()).authenticationEntryPoint(jarvis))
          .build();
    }
  }

  @BeforeAll
  static void startTheService(@TempDir Path dir) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    key = generator.generateKeyPair();
    issuer =
        new NimbusJwtEncoder(
            new ImmutableJWKSet<>(
                new JWKSet(
                    new RSAKey.Builder((RSAPublicKey) key.getPublic())
                        .privateKey((RSAPrivateKey) key.getPrivate())
                        .build())));
    Path policy =
        Files.write(
            dir.resolve("policy.json"),
            JarvisJson.mapper().writeValueAsBytes(SampleRecords.policy()));
    service =
        new SpringApplicationBuilder(SecuredService.class)
            .properties(
                "server.port=0",
                "jarvis.host.auth=spring-security",
                "jarvis.host.spring-security.admin-authority=SCOPE_jarvis.admin",
                "jarvis.host.policies=file:" + policy,
                // The suite's fresh human Workers are governed by the one Policy (#37).
                "jarvis.host.policy-assignments[0]=" + SampleRecords.POLICY_ID + "=*")
            .run();
    port = Integer.parseInt(service.getEnvironment().getProperty("local.server.port"));
  }

  @AfterAll
  static void stopIt() {
    service.close();
  }

  /** A token of the company's provider for {@code subject}, listing {@code actors}. */
  static String jwt(String subject, List<String> actors, String scope) {
    Instant now = Clock.systemUTC().instant();
    JwtClaimsSet.Builder claims =
        JwtClaimsSet.builder()
            .subject(subject)
            .issuedAt(now)
            .expiresAt(now.plus(Duration.ofHours(1)))
            .claim(SpringSecurityHostAuth.DEFAULT_ACTORS_CLAIM, actors);
    if (!scope.isEmpty()) {
      claims.claim("scope", scope);
    }
    return issuer
        .encode(
            JwtEncoderParameters.from(
                JwsHeader.with(SignatureAlgorithm.RS256).build(), claims.build()))
        .getTokenValue();
  }

  @Test
  void theConformanceSuitePassesWithAJwtPerRole() {
    String admin = HostConfig.DEFAULT_ADMIN_ACTOR_ID;
    RoleCredentials roles =
        new RoleCredentials(
            new ActorCredential(admin, jwt("ops", List.of(admin), "jarvis.admin")),
            new ActorCredential(RUN + "human", jwt("alice", List.of(RUN + "human"), "")),
            new ActorCredential(RUN + "agent", jwt("agent-svc", List.of(RUN + "agent"), "")),
            Optional.of(
                new ActorCredential(RUN + "outsider", jwt("bob", List.of(RUN + "outsider"), ""))));
    ConformanceReport report =
        ConformanceSuite.run(
            ConformanceConfig.live(URI.create(base()), roles).runPrefix(RUN).build());
    assertEquals(List.of(), report.failures());
    assertTrue(report.results().size() > 40, "ran " + report.results().size() + " checks");
  }

  @Test
  void aJwtListingOneActorCannotActAsAnotherWhileTheOtherActorsOwnTokenIs() throws Exception {
    String id = UUID.randomUUID().toString();
    String humanWorker = "w-human-" + id;
    String agentWorker = "w-agent-" + id;
    String alice = "actor-alice-" + id;
    String agent = "actor-agent-" + id;
    String admin = HostConfig.DEFAULT_ADMIN_ACTOR_ID;
    String adminToken = jwt("ops", List.of(admin), "jarvis.admin");
    String now = RequestTimestamp.format(Clock.systemUTC().instant());
    ok(
        put(
            "/workers/" + humanWorker,
            adminToken,
            admin,
            SampleRecords.worker(humanWorker, "human")));
    ok(
        put(
            "/workers/" + agentWorker,
            adminToken,
            admin,
            SampleRecords.worker(agentWorker, "agent")));
    ok(
        put(
            "/actors/" + alice,
            adminToken,
            admin,
            SampleRecords.actor(alice, humanWorker, "human", now)));
    ok(
        put(
            "/actors/" + agent,
            adminToken,
            admin,
            SampleRecords.actor(agent, agentWorker, "agent", now)));
    String aliceToken = jwt("alice", List.of(alice), "");
    String session = "ws-" + id;
    Map<String, String> genesis = mutationHeaders(alice);
    genesis.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, "0");
    genesis.put(JarvisHeaders.PREVIOUS_EVENT_HASH, ChainCursor.GENESIS.lastEventHash());
    ok(
        send(
            "POST",
            "/work-sessions",
            aliceToken,
            genesis,
            SampleRecords.workSession(session, alice, humanWorker, agentWorker, now)));

    // The attack: Alice's token names the agent's Actor, a member of her WorkSession.
    HttpResponse<String> asAgent =
        send("GET", "/work-sessions/" + session, aliceToken, readHeaders(agent), null);
    refused(asAgent);
    assertTrue(asAgent.body().contains("may not act as this Actor"), asAgent.body());
    // The controls: the agent's own token reads it as the agent, and Alice's as Alice.
    String agentToken = jwt("agent-svc", List.of(agent), "");
    ok(send("GET", "/work-sessions/" + session, agentToken, readHeaders(agent), null));
    ok(send("GET", "/work-sessions/" + session, aliceToken, readHeaders(alice), null));
    // Listing the admin Actor without the admin scope registers nothing; the scope does (above).
    HttpResponse<String> noScope =
        put(
            "/workers/w-more-" + id,
            jwt("mallory", List.of(admin), ""),
            admin,
            SampleRecords.worker("w-more-" + id, "human"));
    refused(noScope);
    assertTrue(noScope.body().contains("administering credential"), noScope.body());
  }

  @Test
  void withoutAnAuthenticationTheCallIsRefusedAsACallWithoutACredentialIs() throws Exception {
    HttpResponse<String> none =
        send("GET", "/work-sessions/ws-1", null, readHeaders("actor-alice"), null);
    // What a host on the credentials file answers to the same request without Authorization.
    StoredResponse fileHost =
        new ProtocolHost(HostConfig.builder(Credentials.of(List.of())).build())
            .answer(
                "GET",
                "/work-sessions/ws-1",
                "",
                name -> Optional.ofNullable(readHeaders("actor-alice").get(name)),
                new byte[0]);
    assertEquals(fileHost.status(), none.statusCode());
    assertEquals(
        withoutTraceId(new String(fileHost.body(), StandardCharsets.UTF_8)),
        withoutTraceId(none.body()));
    assertEquals("unauthorized_actor", errorId(none));
  }

  @Test
  void aTokenTheServiceDoesNotTrustIsRefusedAsACredentialTheHostDoesNotAccept() throws Exception {
    // Signed by another key: the chain refuses it, and the host answers.
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair other = generator.generateKeyPair();
    String forged =
        new NimbusJwtEncoder(
                new ImmutableJWKSet<>(
                    new JWKSet(
                        new RSAKey.Builder((RSAPublicKey) other.getPublic())
                            .privateKey((RSAPrivateKey) other.getPrivate())
                            .build())))
            .encode(
                JwtEncoderParameters.from(
                    JwsHeader.with(SignatureAlgorithm.RS256).build(),
                    JwtClaimsSet.builder()
                        .subject("mallory")
                        .claim("jarvis_actors", List.of(HostConfig.DEFAULT_ADMIN_ACTOR_ID))
                        .claim("scope", "jarvis.admin")
                        .build()))
            .getTokenValue();
    Map<String, String> headers = readHeaders(HostConfig.DEFAULT_ADMIN_ACTOR_ID);
    for (String token : List.of(forged, "not.a.jwt")) {
      HttpResponse<String> refused = send("GET", "/work-sessions/ws-1", token, headers, null);
      // What a host on the credentials file answers to a token it does not accept.
      Map<String, String> withToken = new LinkedHashMap<>(headers);
      withToken.put("Authorization", "Bearer " + token);
      StoredResponse fileHost =
          new ProtocolHost(HostConfig.builder(Credentials.of(List.of())).build())
              .answer(
                  "GET",
                  "/work-sessions/ws-1",
                  "",
                  name -> Optional.ofNullable(withToken.get(name)),
                  new byte[0]);
      assertEquals(fileHost.status(), refused.statusCode(), refused.body());
      assertEquals(
          withoutTraceId(new String(fileHost.body(), StandardCharsets.UTF_8)),
          withoutTraceId(refused.body()));
    }
  }

  private static String base() {
    return "http://127.0.0.1:" + port + "/jarvis";
  }

  private static JsonNode json(String body) throws IOException {
    return JarvisJson.mapper().readTree(body);
  }

  private static String errorId(HttpResponse<String> response) throws IOException {
    return json(response.body()).path("error_id").asText();
  }

  private static String withoutTraceId(String body) throws IOException {
    ObjectNode error = (ObjectNode) json(body);
    error.remove("trace_id");
    return error.toString();
  }

  /** A refusal of the host's, {@code unauthorized_actor}, as the credentials file would give. */
  private static void refused(HttpResponse<String> response) throws IOException {
    assertEquals(4, response.statusCode() / 100, response.statusCode() + " " + response.body());
    assertEquals("unauthorized_actor", errorId(response));
  }

  private static void ok(HttpResponse<String> response) {
    assertEquals(2, response.statusCode() / 100, response.statusCode() + " " + response.body());
  }

  private static Map<String, String> readHeaders(String actor) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    return headers;
  }

  private static Map<String, String> mutationHeaders(String actor) {
    Map<String, String> headers = readHeaders(actor);
    headers.put(JarvisHeaders.IDEMPOTENCY_KEY, "key-" + UUID.randomUUID());
    headers.put(
        JarvisHeaders.REQUEST_TIMESTAMP, RequestTimestamp.format(Clock.systemUTC().instant()));
    return headers;
  }

  private HttpResponse<String> put(String path, String token, String actor, JsonNode body)
      throws Exception {
    return send("PUT", path, token, mutationHeaders(actor), body);
  }

  private HttpResponse<String> send(
      String method, String path, String token, Map<String, String> headers, JsonNode body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(
                        JarvisJson.mapper().writeValueAsBytes(body)));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    headers.forEach(request::header);
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
