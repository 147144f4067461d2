package dev.jarvis.benchmarks;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.RequestResolution;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * The live loop end to end, as its target states it: this process is the agent, blocked in {@code
 * awaitResolution} on host instance A; the human approves from another process, {@code jarvis-cli
 * review}, through instance B sharing A's database. Measured: from the moment the review process
 * printed the recorded Review to the moment the agent's await completed approved; then a Request
 * nobody answers, from its {@code expires_at} to the await completing expired. Run by {@code
 * jarvis-benchmarks/await-review.sh}.
 *
 * <p>Arguments: {@code A_URL B_URL TOKEN CLI_JAR [ROUNDS]}.
 */
public final class AwaitReviewRun {

  private static final String HUMAN_WORKER = "w-await-human";
  private static final String AGENT_WORKER = "w-await-agent";
  private static final String HUMAN = "a-await-human";
  private static final String AGENT = "a-await-agent";

  private AwaitReviewRun() {}

  public static void main(String[] args) throws Exception {
    URI a = URI.create(args[0]);
    URI b = URI.create(args[1]);
    String token = args[2];
    String cli = args[3];
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 5;
    try (JarvisClient agent =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(a)
                .hostAuth("Bearer " + token)
                .actorId(AGENT)
                .build())) {
      JarvisClient admin = agent.as("host-admin");
      admin.registerWorker(admin.records().worker(HUMAN_WORKER, WorkerType.HUMAN, "reviewer"));
      admin.registerWorker(admin.records().worker(AGENT_WORKER, WorkerType.AGENT, "assistant"));
      admin.registerActor(admin.records().actor(HUMAN, HUMAN_WORKER, ActorType.HUMAN));
      admin.registerActor(admin.records().actor(AGENT, AGENT_WORKER, ActorType.AGENT));
      JarvisClient human = agent.as(HUMAN);
      List<Long> resumes = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        String ws = workSession(human);
        Request request = pendingRequest(agent, ws, Duration.ofMinutes(30));
        long[] completed = new long[1];
        CompletableFuture<RequestResolution> await =
            agent
                .awaitResolutionAsync(ws, request.getId(), Duration.ofMinutes(2))
                .thenApply(
                    resolved -> {
                      completed[0] = System.nanoTime();
                      return resolved;
                    });
        long reviewed = review(cli, b, token, ws, request.getId(), "--approve", "--max-uses", "1");
        RequestResolution resolution = await.get();
        if (resolution.approval().isEmpty()) {
          throw new IllegalStateException("not approved: " + resolution);
        }
        resumes.add(Math.max(0, completed[0] - reviewed));
        System.out.printf(
            Locale.ROOT,
            "round %d: review printed -> await approved on the other instance: %.1f ms%n",
            round,
            (completed[0] - reviewed) / 1e6);
      }
      resumes.sort(null);
      System.out.printf(
          Locale.ROOT,
          "resume after review (two instances, %d rounds): median %.1f ms, max %.1f ms%n",
          rounds,
          resumes.get(rounds / 2) / 1e6,
          resumes.get(rounds - 1) / 1e6);
      String ws = workSession(human);
      Request expiring = pendingRequest(agent, ws, Duration.ofSeconds(3));
      RequestResolution expired =
          agent.awaitResolution(ws, expiring.getId(), Duration.ofMinutes(1));
      Instant now = Instant.now();
      Instant expiresAt = expiring.getExpiresAt().toInstant();
      System.out.printf(
          Locale.ROOT,
          "nobody answers: await completed %s %.0f ms after expires_at%n",
          expired.outcome(),
          Duration.between(expiresAt, now).toNanos() / 1e6);
    }
  }

  /** Runs {@code jarvis-cli review} as another process; the instant it printed the Review. */
  private static long review(
      String cli, URI host, String token, String ws, String id, String... how) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                "java",
                "-jar",
                cli,
                "review",
                id,
                "--work-session",
                ws,
                "--base-url",
                host.toString(),
                "--token",
                token,
                "--actor",
                HUMAN));
    command.addAll(List.of(how));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    long printed = 0;
    StringBuilder output = new StringBuilder();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (printed == 0 && line.startsWith("{")) {
          printed = System.nanoTime();
        }
        output.append(line).append('\n');
      }
    }
    if (process.waitFor() != 0 || printed == 0) {
      throw new IllegalStateException("review failed: " + output);
    }
    return printed;
  }

  private static String workSession(JarvisClient human) {
    return human
        .createWorkSession(
            human
                .records()
                .workSession(
                    "Wait for the human.",
                    HUMAN_WORKER,
                    AGENT_WORKER,
                    SampleRecords.policy().path("id").asText()))
        .getId();
  }

  private static Request pendingRequest(JarvisClient agent, String ws, Duration expiresIn) {
    PolicyDecision decision =
        agent.recordPolicyDecision(
            ws,
            agent
                .records()
                .policyDecision(
                    ws,
                    SampleRecords.policy().path("id").asText(),
                    ProtocolRecords.action(
                        "fetch_external_source", "source:vendor-docs", "scope:source-collection"),
                    RiskClass.MEDIUM,
                    PolicyDecisionResult.REVIEW_REQUIRED,
                    "Needs review.")
                .requestId(agent.records().newId("req")));
    return agent.createRequest(
        ws, agent.records().request(decision, AGENT_WORKER, HUMAN_WORKER, expiresIn));
  }
}
