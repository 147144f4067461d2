package dev.jarvis.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code request-inbox} capability through the starter's servlet on a real embedded Tomcat: the
 * starter declares it, the human lists the Request waiting on it, the agent is refused, and the
 * long poll (held in the servlet's async mode) answers with the next Request.
 */
@Timeout(60)
class InboxOnTomcatTest {

  static final String TOKEN = "inbox-token-" + UUID.randomUUID();
  static final String HUMAN = "actor-human-inbox-1";
  static final String AGENT = "actor-agent-inbox-1";
  static final String POLICY = SampleRecords.policy().path("id").asText();

  @Test
  void theHumanListsWhatWaitsOnItAndALongPollBringsTheNextRequest() throws Exception {
    Path config = Files.createDirectories(Path.of("target", "inbox-" + UUID.randomUUID()));
    Path credentials =
        Files.writeString(
            config.resolve("credentials.json"),
            "[{\"token_sha256\": \""
                + Credentials.sha256Hex(TOKEN)
                + "\", \"actors\": [\""
                + HostConfig.DEFAULT_ADMIN_ACTOR_ID
                + "\", \""
                + HUMAN
                + "\", \""
                + AGENT
                + "\"], \"admin\": true}]");
    Path policy =
        Files.writeString(config.resolve("policy.json"), SampleRecords.policy().toString());
    ConfigurableApplicationContext service =
        new SpringApplicationBuilder(PlainPathsOnTomcatTest.Service.class)
            .properties(
                "server.port=0",
                "jarvis.host.store.kind=memory",
                "jarvis.host.credentials-file=file:" + credentials.toAbsolutePath(),
                "jarvis.host.policies=file:" + policy.toAbsolutePath(),
                "jarvis.host.policy-assignments[0]=policy-bounded-001=*")
            .run();
    int port = ((WebServerApplicationContext) service).getWebServer().getPort();
    try (JarvisClient admin =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri("http://127.0.0.1:" + port + "/jarvis")
                .hostAuth("Bearer " + TOKEN)
                .actorId(HostConfig.DEFAULT_ADMIN_ACTOR_ID)
                .build())) {
      admin.registerWorker(admin.records().worker("w-human-i", WorkerType.HUMAN, "reviewer"));
      admin.registerWorker(admin.records().worker("w-agent-i", WorkerType.AGENT, "assistant"));
      admin.registerActor(admin.records().actor(HUMAN, "w-human-i", ActorType.HUMAN));
      admin.registerActor(admin.records().actor(AGENT, "w-agent-i", ActorType.AGENT));
      JarvisClient human = admin.as(HUMAN);
      JarvisClient agent = admin.as(AGENT);
      String ws =
          human
              .createWorkSession(
                  human.records().workSession("Inbox on Tomcat.", "w-human-i", "w-agent-i", POLICY))
              .getId();
      Request first = ask(agent, ws);
      InboxPage page = human.inbox();
      assertThat(page.records()).containsExactly(first);
      assertThatThrownBy(agent::inbox).isInstanceOf(JarvisRefusalException.class);
      CompletableFuture<InboxPage> waiting =
          human.inboxAsync(
              RequestInbox.Query.pending()
                  .startingAfter(page.nextAfter())
                  .waiting(Duration.ofSeconds(20)));
      Request second = ask(agent, ws);
      assertThat(waiting.get(20, TimeUnit.SECONDS).records()).containsExactly(second);
    } finally {
      service.close();
    }
  }

  private static Request ask(JarvisClient agent, String ws) {
    PolicyDecision decision =
        agent.recordPolicyDecision(
            ws,
            agent
                .records()
                .policyDecision(
                    ws,
                    POLICY,
                    ProtocolRecords.action(
                        "fetch_external_source", "source:vendor-docs", "scope:source-collection"),
                    RiskClass.MEDIUM,
                    PolicyDecisionResult.REVIEW_REQUIRED,
                    "Needs review.")
                .requestId(agent.records().newId("req")));
    return agent.createRequest(
        ws, agent.records().request(decision, "w-agent-i", "w-human-i", Duration.ofHours(1)));
  }
}
