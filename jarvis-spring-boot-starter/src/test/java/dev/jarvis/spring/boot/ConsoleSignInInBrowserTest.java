package dev.jarvis.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
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
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
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
 * The console signed in through the service's own login page in headless Chromium (Debian's {@code
 * chromium} and {@code chromium-driver}, as the reference host's {@code ConsoleInBrowserTest}): the
 * human logs in with the service's form, the console offers the Actor the login may act as, lists
 * the Request with the Policy rule that required its review, and approves it through the session
 * and its CSRF token; nothing of the session is readable by the page's script or kept in its
 * storage. A failed test leaves a screenshot under {@code target/console-screenshots/}.
 */
@SpringBootTest(
    classes = ConsoleSignInInBrowserTest.Service.class,
    webEnvironment = WebEnvironment.RANDOM_PORT)
class ConsoleSignInInBrowserTest {

  static final Path DIR = Path.of("target", "console-browser-" + UUID.randomUUID());
  static final String PASSWORD = "pw-" + UUID.randomUUID();
  static final String HUMAN = "actor-human-browser-1";
  static final String AGENT = "actor-agent-browser-1";
  static final String ADMIN = HostConfig.DEFAULT_ADMIN_ACTOR_ID;
  static final String HUMAN_WORKER = "w-human-browser-1";
  static final String AGENT_WORKER = "w-agent-browser";
  static final Duration PAGE = Duration.ofSeconds(15);

  /** A service with an HTML login form and a session; scripts send HTTP Basic. */
  @SpringBootConfiguration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class Service {
    @Bean
    SecurityFilterChain login(HttpSecurity http) throws Exception {
      return http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
          .formLogin(
              form ->
                  form.loginPage("/login-page")
                      .loginProcessingUrl("/login")
                      .defaultSuccessUrl("/jarvis/console/", true)
                      .permitAll())
          .httpBasic(Customizer.withDefaults())
          .csrf(csrf -> csrf.ignoringRequestMatchers(r -> r.getHeader("Authorization") != null))
          .build();
    }

    /** The service's login form; mapped at the login's POST too, for Tomcat to run the chain. */
    @Bean
    ServletRegistrationBean<HttpServlet> loginPage() {
      HttpServlet page =
          new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response)
                throws IOException {
              CsrfToken token = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
              response.setContentType("text/html;charset=utf-8");
              response
                  .getWriter()
                  .write(
                      "<!DOCTYPE html><html lang=\"en\"><title>Log in</title><form method=\"post\""
                          + " action=\"/login\"><label for=\"username\">User</label><input"
                          + " id=\"username\" name=\"username\"><label"
                          + " for=\"password\">Password</label><input id=\"password\""
                          + " name=\"password\" type=\"password\"><input type=\"hidden\""
                          + " name=\"_csrf\" value=\""
                          + token.getToken()
                          + "\"><button id=\"log-in\" type=\"submit\">Log in</button></form>");
            }
          };
      return new ServletRegistrationBean<>(page, "/login-page", "/login");
    }

    @Bean
    InMemoryUserDetailsManager people() {
      return new InMemoryUserDetailsManager(
          User.withUsername("alice")
              .password("{noop}" + PASSWORD)
              .authorities("JARVIS_ACTOR_" + HUMAN)
              .build(),
          User.withUsername("agent")
              .password("{noop}" + PASSWORD)
              .authorities("JARVIS_ACTOR_" + AGENT)
              .build(),
          User.withUsername("ops")
              .password("{noop}" + PASSWORD)
              .authorities("JARVIS_ACTOR_" + ADMIN, "JARVIS_ADMIN")
              .build());
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
  }

  private ChromeDriver driver;
  private Path profile;

  @AfterEach
  void closeBrowser() throws IOException {
    if (driver != null) {
      driver.quit();
    }
  }

  private String root() {
    return "http://127.0.0.1:" + context.getWebServer().getPort();
  }

  private static final Map<String, String> USERS =
      Map.of(ADMIN, "ops", HUMAN, "alice", AGENT, "agent");

  private static String basic(String user) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aHumanLogsInWithTheServicesFormContinuesAsTheirActorAndApprovesThroughTheSession()
      throws Exception {
    try (JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(root() + "/jarvis/")
                .hostAuthPerActor(actor -> Optional.of(basic(USERS.get(actor))))
                .actorId(ADMIN)
                .build())) {
      JarvisClient admin = client.as(ADMIN);
      admin.registerWorker(admin.records().worker(HUMAN_WORKER, WorkerType.HUMAN, "reviewer"));
      admin.registerWorker(admin.records().worker(AGENT_WORKER, WorkerType.AGENT, "assistant"));
      admin.registerActor(admin.records().actor(HUMAN, HUMAN_WORKER, ActorType.HUMAN));
      admin.registerActor(admin.records().actor(AGENT, AGENT_WORKER, ActorType.AGENT));
      Request request = asked(client);

      ChromeDriver browser = browser();
      try {
        browser.get(root() + "/jarvis/console/");
        WebDriverWait waiting = new WebDriverWait(browser, PAGE);
        // The service's chain sends the stranger to its own login form.
        waiting.until(ExpectedConditions.visibilityOfElementLocated(By.id("username")));
        browser.findElement(By.id("username")).sendKeys("alice");
        browser.findElement(By.id("password")).sendKeys(PASSWORD);
        browser.findElement(By.id("log-in")).click();

        WebElement proceed =
            waiting.until(
                ExpectedConditions.elementToBeClickable(
                    By.xpath("//section[@id='session']//button")));
        assertThat(proceed.getText()).isEqualTo("Continue as " + HUMAN);
        proceed.click();
        WebElement item =
            waiting.until(
                ExpectedConditions.visibilityOfElementLocated(
                    By.cssSelector("li.request[data-request-id='" + request.getId() + "']")));
        assertThat(item.findElement(By.cssSelector("dd.policy-rule")).getText())
            .startsWith("/review_required_actions/0 (review_required): ");
        item.findElement(By.cssSelector("button.approve")).click();
        waiting.until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("status"), "Recorded: approve"));

        assertThat(
                client
                    .as(AGENT)
                    .getRequest(request.getWorkSessionId(), request.getId())
                    .getStatus())
            .isEqualTo(RequestStatus.APPROVED);
        // The session stays the browser's: HttpOnly, out of the script's reach and storage.
        assertThat(
                ((JavascriptExecutor) browser)
                    .executeScript(
                        "return [localStorage.length, sessionStorage.length, document.cookie]"))
            .isEqualTo(List.of(0L, 0L, ""));
      } catch (AssertionError | RuntimeException e) {
        Path shot = Path.of("target", "console-screenshots", "session-sign-in.png");
        Files.createDirectories(shot.getParent());
        Files.write(shot, browser.getScreenshotAs(OutputType.BYTES));
        throw e;
      }
    }
  }

  private Request asked(JarvisClient client) {
    JarvisClient human = client.as(HUMAN);
    String ws =
        human
            .createWorkSession(
                human
                    .records()
                    .workSession(
                        "Console in a browser behind the service's login.",
                        HUMAN_WORKER,
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
        ws, agent.records().request(decision, AGENT_WORKER, HUMAN_WORKER, Duration.ofHours(1)));
  }

  /** Debian's Chromium through its own chromedriver; skipped outside CI when missing. */
  private ChromeDriver browser() throws IOException {
    Optional<Path> chromium = onPath("chromium").or(() -> onPath("chromium-browser"));
    Optional<Path> chromedriver = onPath("chromedriver");
    if (chromium.isEmpty() || chromedriver.isEmpty()) {
      String missing =
          "the console's browser tests need Debian's chromium and chromium-driver"
              + " (apt-get install -y chromium chromium-driver); not found on the PATH";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail(missing + " (CI never skips them: .ci/run installs them)");
      }
      Assumptions.abort(missing + ": skipped outside CI");
    }
    profile = Files.createTempDirectory("jarvis-console-session-chromium");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.get().toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1100,900",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(chromedriver.get().toFile())
            .usingAnyFreePort()
            .build();
    driver = new ChromeDriver(service, options);
    return driver;
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    return Stream.of(path.split(File.pathSeparator))
        .map(dir -> Path.of(dir, name))
        .filter(Files::isExecutable)
        .findFirst();
  }
}
