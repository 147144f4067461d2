package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.RequestResolution;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.Request;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The review console in headless Chromium against the reference host over loopback (issue #35 item
 * 5): a human signs in with their token, sees an agent's Request arrive live, approves it with a
 * scope or denies it, opens the WorkSession's timeline and its audit verdict; hostile agent text
 * stays text; the page works by keyboard alone; another human's Requests stay out of sight. A
 * failed test leaves a screenshot under {@code target/console-screenshots/}.
 */
class ConsoleInBrowserTest {

  /** How long a test waits for the page: generous, since CI machines are slow; no speed target. */
  private static final Duration PAGE = Duration.ofSeconds(15);

  /** One browser for the class (starting one takes seconds); each test loads the page afresh. */
  @RegisterExtension static final ConsoleBrowser browser = new ConsoleBrowser();

  private ConsoleHost host;

  @AfterEach
  void closeHost() {
    if (host != null) {
      host.close();
    }
  }

  @AfterAll
  static void closeBrowser() {
    browser.close();
  }

  private WebDriver page() {
    if (host == null) {
      host = new ConsoleHost();
    }
    WebDriver driver = browser.driver();
    driver.get(host.page().toString());
    return driver;
  }

  private static WebDriverWait waiting(WebDriver driver) {
    return new WebDriverWait(driver, PAGE);
  }

  private void signIn(WebDriver driver, String actor) {
    driver.findElement(By.id("actor")).sendKeys(actor);
    driver.findElement(By.id("token")).sendKeys(ConsoleHost.TOKENS.get(actor));
    driver.findElement(By.id("sign-in-button")).click();
    waiting(driver).until(ExpectedConditions.visibilityOfElementLocated(By.id("inbox")));
  }

  private static By requestItem(String requestId) {
    return By.cssSelector("li.request[data-request-id='" + requestId + "']");
  }

  private static WebElement arrived(WebDriver driver, String requestId) {
    return waiting(driver)
        .until(ExpectedConditions.visibilityOfElementLocated(requestItem(requestId)));
  }

  private static String status(WebDriver driver) {
    return driver.findElement(By.id("status")).getText();
  }

  @Test
  void aHumanSeesARequestArriveLiveApprovesItWithAScopeAndTheWaitingAgentProceeds()
      throws Exception {
    WebDriver driver = page();
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    signIn(driver, ConsoleHost.HUMAN);
    assertEquals("No Request is waiting for you.", driver.findElement(By.id("empty")).getText());

    // The page is open and showing nothing; the agent asks now, and waits for the answer.
    Request request =
        host.ask(
            ws,
            ConsoleHost.HUMAN_WORKER,
            "source:vendor-docs",
            "The vendor's docs are outside the allowed sources.",
            Duration.ofMinutes(30));
    CompletableFuture<RequestResolution> agentWaits =
        host.as(ConsoleHost.AGENT).awaitResolutionAsync(ws, request.getId(), Duration.ofMinutes(5));
    WebElement item = arrived(driver, request.getId());
    String shown = item.getText();
    for (String fact :
        List.of(
            "fetch_external_source",
            "source:vendor-docs",
            "scope:source-collection",
            "medium",
            "The vendor's docs are outside the allowed sources.",
            ConsoleHost.AGENT,
            request.getPolicyDecisionId(),
            "left")) {
      assertTrue(shown.contains(fact), "the Request shows " + fact + ": " + shown);
    }

    WebElement uses = item.findElement(By.cssSelector("input[id^='uses-']"));
    uses.clear();
    uses.sendKeys("3");
    WebElement minutes = item.findElement(By.cssSelector("input[id^='minutes-']"));
    minutes.clear();
    minutes.sendKeys("20");
    item.findElement(By.cssSelector("textarea")).sendKeys("Fine for this answer.");
    item.findElement(By.cssSelector("button.approve")).click();

    RequestResolution answer = agentWaits.get(20, TimeUnit.SECONDS);
    assertEquals(RequestResolution.Outcome.APPROVED, answer.outcome(), answer.toString());
    ApprovalScope scope = answer.approval().orElseThrow();
    assertEquals(3L, scope.getMaxUses());
    assertEquals(
        host.clock.instant().plus(Duration.ofMinutes(20)), scope.getExpiresAt().toInstant());
    assertEquals(ConsoleHost.AGENT, scope.getAppliesToActorId());
    waiting(driver)
        .until(ExpectedConditions.invisibilityOfElementLocated(requestItem(request.getId())));
    assertTrue(status(driver).startsWith("Recorded: approve"), status(driver));
  }

  @Test
  void aRequestShowsThePolicyRuleThatRequiredItsReviewAsTheHostEvaluatedIt() {
    WebDriver driver = page();
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    // The agent's own refs say nothing of the rule: what the page shows comes from the host.
    Request request =
        host.ask(
            ws,
            ConsoleHost.HUMAN_WORKER,
            "source:vendor-docs",
            "Needs review.",
            Duration.ofHours(1),
            r -> r.policyRefs(java.util.Set.of("policy:the-agent-says-so")));
    signIn(driver, ConsoleHost.HUMAN);
    WebElement rule =
        arrived(driver, request.getId()).findElement(By.cssSelector("dd.policy-rule"));

    assertEquals(
        "/review_required_actions/0 (review_required): The Policy requires a human's review for"
            + " fetch_external_source.",
        rule.getText());
    assertEquals(0L, rule.findElements(By.xpath("./*")).size(), "the rule is text, not markup");
  }

  @Test
  void aPolicyRuleWithMarkupInItsTextRendersAsInertText() {
    String image = "<img src=x onerror=\"window.pwned='rule'\">";
    com.fasterxml.jackson.databind.node.ObjectNode policy = Payloads.policy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) policy.path("escalation_rules").get(0))
        .put("trigger", image);
    host = new ConsoleHost(config -> config.policy(policy));
    WebDriver driver = page();
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    // summarize is allowed; at high risk the escalation rule (its trigger in the reason) decides.
    Request request =
        host.ask(
            ws,
            ConsoleHost.HUMAN_WORKER,
            dev.jarvis.core.records.ProtocolRecords.action(
                "summarize", "source:docs", "scope:source-collection"),
            dev.jarvis.model.RiskClass.HIGH,
            "High risk.",
            Duration.ofHours(1),
            r -> r);
    signIn(driver, ConsoleHost.HUMAN);
    WebElement rule =
        arrived(driver, request.getId()).findElement(By.cssSelector("dd.policy-rule"));

    assertTrue(
        rule.getText().startsWith("/escalation_rules/0 (review_required): "), rule.getText());
    assertTrue(rule.getText().contains(image), rule.getText());
    assertEquals(0L, rule.findElements(By.xpath("./*")).size());
    JavascriptExecutor js = (JavascriptExecutor) driver;
    js.executeAsyncScript("setTimeout(arguments[arguments.length - 1], 1200)");
    assertEquals(null, js.executeScript("return window.pwned === undefined ? null : window.pwned"));
  }

  @Test
  void aDenialWithAReasonReachesTheWaitingAgentAsDenied() throws Exception {
    WebDriver driver = page();
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    Request request =
        host.ask(
            ws, ConsoleHost.HUMAN_WORKER, "source:forum", "Unknown forum.", Duration.ofHours(1));
    CompletableFuture<RequestResolution> agentWaits =
        host.as(ConsoleHost.AGENT).awaitResolutionAsync(ws, request.getId(), Duration.ofMinutes(5));
    signIn(driver, ConsoleHost.HUMAN);
    WebElement item = arrived(driver, request.getId());
    item.findElement(By.cssSelector("textarea")).sendKeys("Not a source we trust.");
    item.findElement(By.cssSelector("button.deny")).click();

    RequestResolution answer = agentWaits.get(20, TimeUnit.SECONDS);
    assertEquals(RequestResolution.Outcome.DENIED, answer.outcome(), answer.toString());
    assertTrue(answer.approval().isEmpty());
    assertEquals(
        "Not a source we trust.",
        host.as(ConsoleHost.AGENT)
            .getReview(
                ws,
                host.as(ConsoleHost.AGENT).getRequest(ws, request.getId()).getResolvedByReviewId())
            .getComments());
  }

  @Test
  void theTimelineShowsTheWorkSessionsEventsAndTheAuditVerdictOfItsWholeChain() {
    WebDriver driver = page();
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    Request request =
        host.ask(ws, ConsoleHost.HUMAN_WORKER, "source:docs", "Needs review.", Duration.ofHours(1));
    signIn(driver, ConsoleHost.HUMAN);
    arrived(driver, request.getId()).findElement(By.cssSelector("button.timeline")).click();

    waiting(driver).until(ExpectedConditions.visibilityOfElementLocated(By.id("timeline")));
    String verdict = driver.findElement(By.id("verdict")).getText();
    assertTrue(verdict.startsWith("Audit passed"), verdict);
    assertTrue(verdict.contains(" 3 events"), verdict);
    String events = driver.findElement(By.id("events")).getText();
    assertTrue(events.contains("work_session.created"), events);
    assertTrue(events.contains("policy_decision.recorded"), events);
    assertTrue(events.contains("request.created"), events);
    assertTrue(driver.findElement(By.id("checks")).getText().contains("chain: passed"));
  }

  @Test
  void hostileAgentTextInARequestRendersAsInertText() {
    String script = "<script>window.pwned='script'</script>";
    String image = "<img src=x onerror=\"window.pwned='img'\">";
    String link = "<a href=\"javascript:window.pwned='link'\">open</a>";
    WebDriver driver = page();
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    Request request =
        host.ask(
            ws,
            ConsoleHost.HUMAN_WORKER,
            "source:docs",
            script + image,
            Duration.ofHours(1),
            r -> r.humanDecisionNeeded(link).requestedOutcome(image));
    signIn(driver, ConsoleHost.HUMAN);
    WebElement item = arrived(driver, request.getId());

    String shown = item.getText();
    assertTrue(shown.contains(script + image), "shown as the agent wrote it: " + shown);
    assertTrue(shown.contains(link), shown);
    JavascriptExecutor js = (JavascriptExecutor) driver;
    assertEquals(
        0L,
        js.executeScript(
            "return document.querySelectorAll('#requests script, #requests img, #requests a,"
                + " #requests [onerror], #requests [href]').length"));
    // Give an image's error or a script its chance to run: the page polls twice meanwhile.
    js.executeAsyncScript("setTimeout(arguments[arguments.length - 1], 1200)");
    assertEquals(null, js.executeScript("return window.pwned === undefined ? null : window.pwned"));
    assertFalse(alertOpen(driver));
  }

  private static boolean alertOpen(WebDriver driver) {
    try {
      driver.switchTo().alert();
      return true;
    } catch (NoAlertPresentException e) {
      return false;
    }
  }

  @Test
  void aHumanApprovesByKeyboardAlone() throws Exception {
    WebDriver driver = page();
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    Request request =
        host.ask(ws, ConsoleHost.HUMAN_WORKER, "source:docs", "Needs review.", Duration.ofHours(1));
    CompletableFuture<RequestResolution> agentWaits =
        host.as(ConsoleHost.AGENT).awaitResolutionAsync(ws, request.getId(), Duration.ofMinutes(5));

    Actions keys = new Actions(driver);
    keys.sendKeys(Keys.TAB).sendKeys(ConsoleHost.HUMAN).sendKeys(Keys.TAB).perform();
    keys.sendKeys(ConsoleHost.TOKENS.get(ConsoleHost.HUMAN)).sendKeys(Keys.ENTER).perform();
    arrived(driver, request.getId());

    WebElement focused = driver.switchTo().activeElement();
    for (int i = 0; i < 40 && !"Approve".equals(focused.getText()); i++) {
      keys.sendKeys(Keys.TAB).perform();
      focused = driver.switchTo().activeElement();
    }
    assertEquals("Approve", focused.getText(), "Tab reaches the Approve button");
    keys.sendKeys(Keys.ENTER).perform();

    RequestResolution answer = agentWaits.get(20, TimeUnit.SECONDS);
    assertEquals(RequestResolution.Outcome.APPROVED, answer.outcome(), answer.toString());
  }

  @Test
  void everyControlHasAnAccessibleName() {
    WebDriver driver = page();
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    Request request =
        host.ask(ws, ConsoleHost.HUMAN_WORKER, "source:docs", "Needs review.", Duration.ofHours(1));
    signIn(driver, ConsoleHost.HUMAN);
    arrived(driver, request.getId());
    // An input's name is its <label for>; a button's, its text.
    Object unnamed =
        ((JavascriptExecutor) driver)
            .executeScript(
                "return [...document.querySelectorAll('input, textarea, button')]"
                    + ".filter(c => c.tagName === 'BUTTON' ? !c.textContent.trim()"
                    + " : !(c.labels && c.labels.length && c.labels[0].textContent.trim()))"
                    + ".map(c => c.id || c.outerHTML)");
    assertEquals(List.of(), unnamed);
  }

  @Test
  void anotherHumansRequestsStayOutOfSight() {
    WebDriver driver = page();
    String mine = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    String theirs = host.workSession(ConsoleHost.OTHER_HUMAN, ConsoleHost.OTHER_HUMAN_WORKER);
    Request theirRequest =
        host.ask(
            theirs, ConsoleHost.OTHER_HUMAN_WORKER, "source:docs", "Theirs.", Duration.ofHours(1));
    Request myRequest =
        host.ask(mine, ConsoleHost.HUMAN_WORKER, "source:docs", "Mine.", Duration.ofHours(1));
    signIn(driver, ConsoleHost.HUMAN);
    arrived(driver, myRequest.getId());
    // One more of theirs while the page is open: it never shows here.
    Request theirLater =
        host.ask(
            theirs, ConsoleHost.OTHER_HUMAN_WORKER, "source:docs", "Theirs.", Duration.ofHours(1));
    Request myLater =
        host.ask(mine, ConsoleHost.HUMAN_WORKER, "source:docs", "Mine.", Duration.ofHours(1));
    arrived(driver, myLater.getId());
    assertEquals(List.of(), driver.findElements(requestItem(theirRequest.getId())));
    assertEquals(List.of(), driver.findElements(requestItem(theirLater.getId())));
    assertFalse(driver.findElement(By.id("requests")).getText().contains("Theirs."));

    // Positive control: the other human, signed in, sees theirs and not mine.
    driver.findElement(By.id("sign-out")).click();
    signIn(driver, ConsoleHost.OTHER_HUMAN);
    arrived(driver, theirLater.getId());
    arrived(driver, theirRequest.getId());
    assertEquals(List.of(), driver.findElements(requestItem(myRequest.getId())));
    assertFalse(driver.findElement(By.id("requests")).getText().contains("Mine."));
  }

  @Test
  void aTokenOfAnotherActorDoesNotSignIn() {
    WebDriver driver = page();
    driver.findElement(By.id("actor")).sendKeys(ConsoleHost.HUMAN);
    driver.findElement(By.id("token")).sendKeys(ConsoleHost.TOKENS.get(ConsoleHost.OTHER_HUMAN));
    driver.findElement(By.id("sign-in-button")).click();
    waiting(driver)
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("status"), "Not signed in: unauthorized_actor"));
    assertFalse(driver.findElement(By.id("inbox")).isDisplayed());
    assertTrue(driver.findElement(By.id("sign-in")).isDisplayed());
  }

  @Test
  void theTokenStaysOutOfTheAddressStorageAndCookies() {
    WebDriver driver = page();
    signIn(driver, ConsoleHost.HUMAN);
    String token = ConsoleHost.TOKENS.get(ConsoleHost.HUMAN);
    assertFalse(driver.getCurrentUrl().contains(token));
    assertEquals("", driver.findElement(By.id("token")).getAttribute("value"));
    assertEquals(
        List.of(0L, 0L, ""),
        ((JavascriptExecutor) driver)
            .executeScript("return [localStorage.length, sessionStorage.length, document.cookie]"));
  }

  /**
   * The screenshots in docs/console.md, taken by this test when asked ({@code
   * -Djarvis.console.docs=true}); otherwise it checks only that the pages it would shoot render.
   */
  @Test
  void theDocsScreenshotsAreTakenFromTheRunningConsole() {
    WebDriver driver = page();
    boolean write = Boolean.getBoolean("jarvis.console.docs");
    Path docs = Path.of("..", "docs", "console");
    if (write) {
      browser.screenshot(docs.resolve("sign-in.png"));
    }
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    Request request =
        host.ask(
            ws,
            ConsoleHost.HUMAN_WORKER,
            "source:vendor-docs",
            "The vendor's docs are outside the allowed sources.",
            Duration.ofMinutes(30));
    signIn(driver, ConsoleHost.HUMAN);
    arrived(driver, request.getId());
    if (write) {
      browser.screenshot(docs.resolve("request.png"));
    }
    arrived(driver, request.getId()).findElement(By.cssSelector("button.timeline")).click();
    waiting(driver).until(ExpectedConditions.visibilityOfElementLocated(By.id("verdict")));
    if (write) {
      ((JavascriptExecutor) driver)
          .executeScript("document.getElementById('timeline').scrollIntoView()");
      browser.screenshot(docs.resolve("timeline.png"));
    }
  }
}
