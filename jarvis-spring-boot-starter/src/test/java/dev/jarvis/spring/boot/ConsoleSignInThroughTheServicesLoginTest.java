package dev.jarvis.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.host.HostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The review console signed in through the service's own login ({@code
 * jarvis.host.auth=spring-security}, form login and a session cookie) on a real embedded Tomcat:
 * the page learns its Actors and the session's CSRF token from {@code api/session}, an approval
 * with the token in its header is recorded, the same POST without it is refused and changes
 * nothing, and one human's session never reads or answers another's Requests.
 */
@SpringBootTest(
    classes = ConsoleSignInThroughTheServicesLoginTest.Service.class,
    webEnvironment = WebEnvironment.RANDOM_PORT)
class ConsoleSignInThroughTheServicesLoginTest {

  static final Path DIR = Path.of("target", "console-login-" + UUID.randomUUID());
  static final String PASSWORD = "pw-" + UUID.randomUUID();
  static final String HUMAN = "actor-human-login-1";
  static final String OTHER_HUMAN = "actor-human-login-2";
  static final String AGENT = "actor-agent-login-1";
  static final String ADMIN = HostConfig.DEFAULT_ADMIN_ACTOR_ID;
  static final String HUMAN_WORKER = "w-human-login-1";
  static final String OTHER_WORKER = "w-human-login-2";
  static final String AGENT_WORKER = "w-agent-login";
  static final String LOGIN_PAGE = "/login-page";

  /**
   * A service with its own login page: people sign in with a form and a session cookie; scripts and
   * agents send HTTP Basic. CSRF protection stays on for every request without an Authorization
   * header, the console's among them (a cross-site page can send a cookie, never a header).
   */
  @SpringBootConfiguration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class Service {
    @Bean
    SecurityFilterChain login(
        HttpSecurity http,
        @org.springframework.beans.factory.annotation.Value(
                "${test.console-exempt-from-csrf:false}")
            boolean consoleExempt)
        throws Exception {
      return http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
          .formLogin(form -> form.loginPage(LOGIN_PAGE).loginProcessingUrl("/login").permitAll())
          .httpBasic(Customizer.withDefaults())
          .csrf(
              csrf ->
                  csrf.ignoringRequestMatchers(
                      r ->
                          r.getHeader("Authorization") != null
                              || (consoleExempt
                                  && r.getRequestURI().startsWith("/jarvis/console/"))))
          .build();
    }

    /** The service's login page, reduced to what a form needs: the session's CSRF token. */
    @Bean
    ServletRegistrationBean<HttpServlet> loginPage() {
      HttpServlet page =
          new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response)
                throws IOException {
              CsrfToken token = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
              response.setContentType("text/plain");
              response.getWriter().write(token.getToken());
            }
          };
      // Mapped at the login's POST too: Tomcat answers a path no servlet maps with 404 before any
      // filter runs, the chain's login filter included (the filter answers the POST itself).
      return new ServletRegistrationBean<>(page, LOGIN_PAGE, "/login");
    }

    @Bean
    InMemoryUserDetailsManager people() {
      return new InMemoryUserDetailsManager(
          user("alice", "JARVIS_ACTOR_" + HUMAN),
          user("bob", "JARVIS_ACTOR_" + OTHER_HUMAN),
          user("agent", "JARVIS_ACTOR_" + AGENT),
          user("ops", "JARVIS_ACTOR_" + ADMIN, "JARVIS_ADMIN"));
    }

    private static org.springframework.security.core.userdetails.UserDetails user(
        String name, String... authorities) {
      return User.withUsername(name).password("{noop}" + PASSWORD).authorities(authorities).build();
    }
  }

  @Autowired WebServerApplicationContext context;

  @DynamicPropertySource
  static void console(DynamicPropertyRegistry registry) throws IOException {
    Files.createDirectories(DIR);
    Path policy = Files.writeString(DIR.resolve("policy.json"), SampleRecords.policy().toString());
    registry.add("jarvis.host.auth", () -> "spring-security");
    registry.add("jarvis.host.policies", policy::toString);
    registry.add("jarvis.host.console.enabled", () -> "true");
    registry.add("jarvis.host.policy-assignments[0]", () -> SampleRecords.POLICY_ID + "=*");
    registry.add("jarvis.host.agent-serves[0]", () -> AGENT_WORKER + "=" + HUMAN_WORKER);
    registry.add("jarvis.host.agent-serves[1]", () -> AGENT_WORKER + "=" + OTHER_WORKER);
  }

  private final HttpClient http =
      HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  private URI root() {
    return URI.create("http://127.0.0.1:" + context.getWebServer().getPort() + "/");
  }

  private static final Map<String, String> BASIC_ACTORS =
      Map.of(ADMIN, "ops", HUMAN, "alice", OTHER_HUMAN, "bob", AGENT, "agent");

  private JarvisClient client;

  @BeforeEach
  void registerThePeople() {
    client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(root().resolve("jarvis/"))
                .hostAuthPerActor(actor -> Optional.of(basic(BASIC_ACTORS.get(actor))))
                .actorId(ADMIN)
                .build());
    JarvisClient admin = client.as(ADMIN);
    if (!registered.add(context.getWebServer().getPort())) {
      return; // one application context per class: its people once
    }
    admin.registerWorker(admin.records().worker(HUMAN_WORKER, WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(admin.records().worker(OTHER_WORKER, WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(admin.records().worker(AGENT_WORKER, WorkerType.AGENT, "assistant"));
    admin.registerActor(admin.records().actor(HUMAN, HUMAN_WORKER, ActorType.HUMAN));
    admin.registerActor(admin.records().actor(OTHER_HUMAN, OTHER_WORKER, ActorType.HUMAN));
    admin.registerActor(admin.records().actor(AGENT, AGENT_WORKER, ActorType.AGENT));
  }

  private static final java.util.Set<Integer> registered =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private static String basic(String user) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
  }

  /** A browser's session: its cookie, after the service's login form accepted the password. */
  private record Browser(String cookie) {}

  private static final Pattern SESSION_COOKIE = Pattern.compile("(JSESSIONID=[^;]+)");
  private static final Pattern FORM_TOKEN =
      Pattern.compile(
          "name=\"_csrf\"[^>]*value=\"([^\"]+)\"|value=\"([^\"]+)\"[^>]*name=\"_csrf\"");

  private Browser logIn(String user) throws Exception {
    HttpResponse<String> form =
        http.send(
            HttpRequest.newBuilder(root().resolve(LOGIN_PAGE.substring(1))).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    String cookie =
        cookieOf(form)
            .orElseThrow(
                () -> new AssertionError(form.statusCode() + " " + form.headers() + form.body()));
    String formToken = form.body();
    String fields =
        "username="
            + user
            + "&password="
            + URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8)
            + "&_csrf="
            + URLEncoder.encode(formToken, StandardCharsets.UTF_8);
    HttpResponse<String> loggedIn =
        http.send(
            HttpRequest.newBuilder(root().resolve("login"))
                .header("Cookie", cookie)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(fields))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(loggedIn.statusCode()).isEqualTo(302);
    assertThat(loggedIn.headers().firstValue("Location").orElse("")).doesNotContain("error");
    // The login changes the session's id (session fixation): the new cookie is the session.
    return new Browser(cookieOf(loggedIn).orElse(cookie));
  }

  private static Optional<String> cookieOf(HttpResponse<?> response) {
    for (String set : response.headers().allValues("Set-Cookie")) {
      Matcher m = SESSION_COOKIE.matcher(set);
      if (m.find()) {
        return Optional.of(m.group(1));
      }
    }
    return Optional.empty();
  }

  private HttpResponse<String> console(
      Browser browser, String method, String path, Map<String, String> headers, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(root().resolve("jarvis/console/" + path))
            .header("Cookie", browser.cookie())
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode signedIn(Browser browser) throws Exception {
    HttpResponse<String> session = console(browser, "GET", "api/session", Map.of(), null);
    assertThat(session.statusCode()).as(session.body()).isEqualTo(200);
    return JarvisJson.mapper().readTree(session.body());
  }

  private Request asked(String human, String humanWorker) {
    JarvisClient h = client.as(human);
    String ws =
        h.createWorkSession(
                h.records()
                    .workSession(
                        "Console behind the service's login.",
                        humanWorker,
                        AGENT_WORKER,
                        SampleRecords.POLICY_ID))
            .getId();
    JarvisClient agent = client.as(AGENT);
    PolicyDecision decision =
        agent.recordPolicyDecision(
            ws,
            agent
                .records()
                .policyDecision(
                    ws,
                    SampleRecords.POLICY_ID,
                    ProtocolRecords.action(
                        "fetch_external_source", "source:docs", "scope:source-collection"),
                    RiskClass.MEDIUM,
                    PolicyDecisionResult.REVIEW_REQUIRED,
                    "Needs review.")
                .requestId(agent.records().newId("req")));
    return agent.createRequest(
        ws, agent.records().request(decision, AGENT_WORKER, humanWorker, Duration.ofHours(1)));
  }

  private static String reviewPath(Request request) {
    return "api/work-sessions/"
        + request.getWorkSessionId()
        + "/requests/"
        + request.getId()
        + "/review";
  }

  private static final String APPROVE =
      "{\"decision\":\"approve\",\"max_uses\":1,\"expires_in_seconds\":600}";

  private static Map<String, String> json(String actor) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Jarvis-Actor-Id", actor);
    headers.put("Content-Type", "application/json");
    return headers;
  }

  @Test
  void aSessionOfTheServicesLoginApprovesWithItsCsrfTokenAndIsRefusedWithoutIt() throws Exception {
    Request request = asked(HUMAN, HUMAN_WORKER);
    Browser alice = logIn("alice");
    JsonNode session = signedIn(alice);
    assertThat(session.path("actors").toString()).isEqualTo("[\"" + HUMAN + "\"]");
    String header = session.path("csrf_header").asText();
    String token = session.path("csrf_token").asText();
    assertThat(header).isNotBlank();

    HttpResponse<String> inbox =
        console(alice, "GET", "api/inbox?after=0&wait=0", Map.of("Jarvis-Actor-Id", HUMAN), null);
    assertThat(inbox.statusCode()).as(inbox.body()).isEqualTo(200);
    assertThat(inbox.body()).contains(request.getId()).contains("/review_required_actions/0");

    HttpResponse<String> forged = console(alice, "POST", reviewPath(request), json(HUMAN), APPROVE);
    assertThat(forged.statusCode()).as(forged.body()).isEqualTo(403);
    HttpResponse<String> wrongToken =
        console(
            alice, "POST", reviewPath(request), with(json(HUMAN), header, "not-" + token), APPROVE);
    assertThat(wrongToken.statusCode()).as(wrongToken.body()).isEqualTo(403);
    assertThat(client.as(AGENT).getRequest(request.getWorkSessionId(), request.getId()).getStatus())
        .isEqualTo(RequestStatus.PENDING);

    HttpResponse<String> approved =
        console(alice, "POST", reviewPath(request), with(json(HUMAN), header, token), APPROVE);
    assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
    assertThat(client.as(AGENT).getRequest(request.getWorkSessionId(), request.getId()).getStatus())
        .isEqualTo(RequestStatus.APPROVED);
  }

  @Test
  void oneHumansSessionNeverReadsOrAnswersAnothersRequests() throws Exception {
    Request alices = asked(HUMAN, HUMAN_WORKER);
    Request bobs = asked(OTHER_HUMAN, OTHER_WORKER);
    Browser bob = logIn("bob");
    JsonNode session = signedIn(bob);
    assertThat(session.path("actors").toString()).isEqualTo("[\"" + OTHER_HUMAN + "\"]");
    Map<String, String> bobsToken =
        with(
            json(OTHER_HUMAN),
            session.path("csrf_header").asText(),
            session.path("csrf_token").asText());

    HttpResponse<String> own =
        console(
            bob, "GET", "api/inbox?after=0&wait=0", Map.of("Jarvis-Actor-Id", OTHER_HUMAN), null);
    assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
    assertThat(own.body()).contains(bobs.getId()).doesNotContain(alices.getId());

    HttpResponse<String> asAlice =
        console(bob, "GET", "api/inbox?after=0&wait=0", Map.of("Jarvis-Actor-Id", HUMAN), null);
    assertThat(asAlice.statusCode()).isEqualTo(400);
    assertThat(asAlice.body()).contains("unauthorized_actor").doesNotContain(alices.getId());

    HttpResponse<String> answered = console(bob, "POST", reviewPath(alices), bobsToken, APPROVE);
    assertThat(answered.statusCode()).isEqualTo(400);
    Map<String, String> posingAsAlice = new LinkedHashMap<>(bobsToken);
    posingAsAlice.put("Jarvis-Actor-Id", HUMAN);
    assertThat(console(bob, "POST", reviewPath(alices), posingAsAlice, APPROVE).statusCode())
        .isEqualTo(400);
    assertThat(client.as(AGENT).getRequest(alices.getWorkSessionId(), alices.getId()).getStatus())
        .isEqualTo(RequestStatus.PENDING);
  }

  @Test
  void withoutALoginTheConsolesApiHasNoSession() throws Exception {
    HttpResponse<String> anonymous =
        http.send(
            HttpRequest.newBuilder(root().resolve("jarvis/console/api/session")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    // The service's chain turns a stranger away (a script: HTTP Basic's challenge) before the
    // console answers: no Actors, no token.
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.body()).doesNotContain("csrf_token");
  }

  private static Map<String, String> with(Map<String, String> headers, String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return more;
  }
}
