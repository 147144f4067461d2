package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.RetryPolicy;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.signature.ActorKey;
import dev.jarvis.core.signature.EventSignature;
import dev.jarvis.core.signature.SigningKey;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Worker;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServeCommandTest {

  @TempDir Path dir;

  @ParameterizedTest(name = "on --runtime {0}")
  @ValueSource(strings = {"undertow", "jersey"})
  void serveRunsTheReferenceHostWithItsTokenPolicyAndAdminUntilStopped(String runtime)
      throws Exception {
    Path policy = Files.writeString(dir.resolve("policy.json"), SampleRecords.policy().toString());
    Serving serving =
        Serving.start(
            "--port",
            "0",
            "--token",
            "t0k3n",
            "--policy",
            policy.toString(),
            "--admin-actor",
            "ops-admin",
            "--store",
            "memory",
            "--runtime",
            runtime);
    assertEquals(List.of(ReferenceHostConfig.DEMO_MODE_NOTICE), serving.notices());
    assertTrue(serving.banner().contains("runtime " + runtime), serving.banner());

    JarvisClient client = client(serving.url(), "t0k3n", "ops-admin");
    Worker worker =
        JarvisJson.mapper()
            .readValue(
                """
                {"id": "worker-1", "type": "human", "role": "r",
                 "authority_scope": {"grants": ["g"]}, "accountability_scope": {"accountable_for": ["a"]}}
                """,
                Worker.class);
    assertEquals("worker-1", client.registerWorker(worker).getId());
    JarvisProtocolException refused =
        assertThrows(
            JarvisProtocolException.class, () -> client.as("host-admin").registerWorker(worker));
    assertEquals(ProtocolErrorId.UNAUTHORIZED_ACTOR, refused.errorId());

    serving.stop();
    assertTrue(serving.nextLine().contains("stopped"));
  }

  @Test
  void anUnknownRuntimeIsAUsageErrorNamingTheChoices() {
    CliException e = usageError("--port", "0", "--token", "t", "--runtime", "netty");
    assertTrue(e.getMessage().contains("undertow or jersey"), e.getMessage());
  }

  @Test
  void anInvalidPolicyFileIsAUsageErrorNamingTheProblem() throws Exception {
    Path policy = Files.writeString(dir.resolve("policy.json"), "{\"id\": \"p\"}");
    CliException e =
        usageError(
            "--port", "0", "--token", "t", "--policy", policy.toString(), "--store", "memory");
    assertTrue(e.getMessage().contains("not a valid Policy"), e.getMessage());
  }

  @Test
  void withACredentialsFileEachTokenActsOnlyAsItsActors() throws Exception {
    Path credentials =
        Files.writeString(
            dir.resolve("credentials.json"),
            """
            [{"token_sha256": "%s", "actors": ["host-admin"], "admin": true},
             {"token_sha256": "%s", "actors": ["actor-agent-1"], "admin": false}]
            """
                .formatted(sha256("admin-token"), sha256("agent-token")));
    Serving serving =
        Serving.start("--port", "0", "--credentials", credentials.toString(), "--store", "memory");
    assertEquals(List.of(), serving.notices(), "no demo-mode notice, straight to the banner");
    Worker worker =
        JarvisJson.mapper().treeToValue(SampleRecords.worker("worker-1", "human"), Worker.class);

    JarvisClient admin = client(serving.url(), "admin-token", "host-admin");
    assertEquals("worker-1", admin.registerWorker(worker).getId());
    JarvisClient agent = client(serving.url(), "agent-token", "host-admin");
    JarvisProtocolException refused =
        assertThrows(JarvisProtocolException.class, () -> agent.registerWorker(worker));
    assertEquals(ProtocolErrorId.UNAUTHORIZED_ACTOR, refused.errorId());

    serving.stop();
  }

  @Test
  void withActorKeysTheHostRefusesBadlySignedEventsAndAuditVerifiesTheSignedOnes()
      throws Exception {
    KeyPair human = SigningKey.generateKeyPair();
    Path keys =
        Files.writeString(
            dir.resolve("actor-keys.json"),
            """
            {"keys": [{"key_id": "key-human-1", "actor_id": "actor-human-1", "public_key": "%s"}],
             "must_sign": ["actor-human-1"]}
            """
                .formatted(ActorKey.encode(human.getPublic())));
    Serving serving =
        Serving.start(
            "--port", "0", "--token", "t", "--actor-keys", keys.toString(), "--store", "memory");
    SigningKey key = new SigningKey("key-human-1", human.getPrivate());
    JarvisClient admin = signingClient(serving.url(), Optional.of(key));
    String ws = humansWorkSession(admin);
    admin.registerActor(admin.records().actor("actor-agent-1", "worker-agent-1", ActorType.AGENT));
    JarvisClient signing = admin.as("actor-human-1");
    JarvisEvent note =
        ProtocolRecords.event(
            "note.recorded", JarvisEventPayload.ObjectTypeEnum.WORK_SESSION, ws, "noted");

    assertEquals("key-human-1", signing.appendJarvisEvent(ws, note).getSigningKeyRef());
    for (Optional<SigningKey> wrong :
        List.of(
            Optional.<SigningKey>empty(),
            Optional.of(
                new SigningKey("key-human-1", SigningKey.generateKeyPair().getPrivate())))) {
      JarvisClient badly = signingClient(serving.url(), wrong).as("actor-human-1");
      JarvisProtocolException refused =
          assertThrows(JarvisProtocolException.class, () -> badly.appendJarvisEvent(ws, note));
      assertEquals(ProtocolErrorId.UNAUTHORIZED_ACTOR, refused.errorId());
    }

    String[] online = {
      "audit",
      "--base-url",
      serving.url(),
      "--token",
      "t",
      "--actor",
      "actor-human-1",
      "--actor-keys",
      keys.toString(),
      ws
    };
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, cli(out, online), out.toString(StandardCharsets.UTF_8));
    assertTrue(
        out.toString(StandardCharsets.UTF_8)
            .matches("(?s).*PASS signatures +1 signed events verified.*"),
        out.toString(StandardCharsets.UTF_8));
    ArrayNode events = JarvisJson.mapper().createArrayNode();
    signing.events(ws).forEach(events::add);
    ((ObjectNode) events.get(1))
        .put(
            "actor_signature",
            EventSignature.signatureOf(
                events.get(1).path("event_hash").asText(),
                SigningKey.generateKeyPair().getPrivate()));
    Path doctored = Files.writeString(dir.resolve("events.json"), events.toString());
    out.reset();
    assertEquals(
        1,
        cli(out, "audit", "--events", doctored.toString(), "--actor-keys", keys.toString()),
        out.toString(StandardCharsets.UTF_8));
    assertTrue(
        out.toString(StandardCharsets.UTF_8)
            .contains("First failure: signatures at index 1 (unauthorized_actor)"),
        out.toString(StandardCharsets.UTF_8));
    serving.stop();
  }

  private static int cli(ByteArrayOutputStream out, String... args) {
    return new JarvisCli()
        .run(
            args,
            new java.io.ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
  }

  private static JarvisClient signingClient(String base, Optional<SigningKey> key) {
    JarvisClientOptions.Builder options =
        JarvisClientOptions.builder()
            .baseUri(base)
            .hostAuth("Bearer t")
            .actorId("host-admin")
            .retryPolicy(RetryPolicy.NONE);
    key.ifPresent(k -> options.signingKey("actor-human-1", k));
    return JarvisClient.create(options.build());
  }

  @Test
  void aTokenAndACredentialsFileTogetherAreAUsageError() {
    CliException e = usageError("--port", "0", "--token", "t", "--credentials", "c.json");
    assertTrue(e.getMessage().contains("mutually exclusive"), e.getMessage());
  }

  @Test
  void aRestartOnTheSameDataDirKeepsARegisteredWorker() throws Exception {
    Path data = dir.resolve("host-data");
    String[] args = {"--port", "0", "--token", "t0k3n", "--data-dir", data.toString()};
    Worker worker =
        JarvisJson.mapper().treeToValue(SampleRecords.worker("worker-1", "human"), Worker.class);

    Serving first = Serving.start(args);
    assertTrue(first.banner().contains("store embedded SQLite in " + data), first.banner());
    client(first.url(), "t0k3n", "host-admin").registerWorker(worker);
    first.stop();

    Serving second = Serving.start(args);
    // An Actor needs a registered Worker (unknown_state otherwise): the Worker outlived the
    // restart.
    dev.jarvis.model.Actor actor =
        JarvisJson.mapper()
            .treeToValue(
                SampleRecords.actor("actor-1", "worker-1", "human", "2026-06-12T18:00:00Z"),
                dev.jarvis.model.Actor.class);
    assertEquals(
        "actor-1", client(second.url(), "t0k3n", "host-admin").registerActor(actor).getId());
    second.stop();
    assertTrue(Files.isDirectory(data));
  }

  @Test
  void aStoreUrlCarryingAPasswordIsAUsageError() {
    CliException e =
        usageError(
            "--port",
            "0",
            "--token",
            "t",
            "--store",
            "jdbc:postgresql://127.0.0.1:5432/db?user=u&password=secret");
    assertTrue(e.getMessage().contains("JARVIS_STORE_PASSWORD"), e.getMessage());
    assertTrue(!e.getMessage().contains("secret"), e.getMessage());
  }

  @Test
  void theStoreBoundsAreTakenAsDurationsAndTheHostServesOnThem() throws Exception {
    Serving serving =
        Serving.start(
            "--port",
            "0",
            "--token",
            "t0k3n",
            "--data-dir",
            dir.resolve("bounded").toString(),
            "--store-pool-wait",
            "500ms",
            "--store-busy-timeout",
            "PT3S",
            "--store-statement-timeout",
            "4s",
            "--store-lock-timeout",
            "1s");
    Worker worker =
        JarvisJson.mapper().treeToValue(SampleRecords.worker("worker-1", "human"), Worker.class);
    assertEquals(
        "worker-1", client(serving.url(), "t0k3n", "host-admin").registerWorker(worker).getId());
    serving.stop();
  }

  @Test
  void aStoreBoundThatIsNoDurationIsAUsageErrorNamingTheForm() {
    CliException e = usageError("--port", "0", "--token", "t", "--store-pool-wait", "two seconds");
    assertTrue(e.getMessage().contains("500ms, 2s or PT2S"), e.getMessage());
  }

  @Test
  void aPoolWaitShorterThanThePoolAllowsIsAUsageError() {
    CliException e =
        usageError("--port", "0", "--token", "t", "--store", "memory", "--store-pool-wait", "10ms");
    assertTrue(e.getMessage().contains("at least 250 ms"), e.getMessage());
  }

  @Test
  void anIdleStreamCarriesHeartbeatsAtTheIntervalServeWasGiven() throws Exception {
    Serving serving =
        Serving.start(
            "--port", "0", "--token", "t", "--store", "memory", "--stream-heartbeat", "100ms");
    JarvisClient admin = client(serving.url(), "t", "host-admin");
    String ws = humansWorkSession(admin);
    HttpResponse<Stream<String>> stream =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(serving.url() + "work-sessions/" + ws + "/events"))
                    .header("Accept", "text/event-stream")
                    .header("Authorization", "Bearer t")
                    .header("Jarvis-Protocol-Version", "v0.1")
                    .header("Jarvis-Actor-Id", "actor-human-1")
                    .build(),
                HttpResponse.BodyHandlers.ofLines());
    assertEquals(200, stream.statusCode());
    // Two heartbeats on a WorkSession where nothing happens after its first event, well within a
    // bound the 15 s default could not meet: the interval is serve's.
    try (Stream<String> lines = stream.body()) {
      assertEquals(
          2L,
          assertTimeoutPreemptively(
              Duration.ofSeconds(10),
              () -> lines.filter(line -> line.startsWith(": heartbeat")).limit(2).count()),
          "heartbeats");
    }
    serving.stop();
  }

  @Test
  void aHeartbeatThatIsNotPositiveIsAUsageError() {
    CliException e = usageError("--port", "0", "--token", "t", "--stream-heartbeat", "0s");
    assertTrue(e.getMessage().contains("--stream-heartbeat must be positive"), e.getMessage());
  }

  /**
   * Registers the human Worker worker-human-1 with its Actor actor-human-1 and the agent Worker
   * worker-agent-1, and opens a WorkSession as that human under the sample Policy.
   */
  private static String humansWorkSession(JarvisClient admin) {
    admin.registerWorker(admin.records().worker("worker-human-1", WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(admin.records().worker("worker-agent-1", WorkerType.AGENT, "assistant"));
    admin.registerActor(admin.records().actor("actor-human-1", "worker-human-1", ActorType.HUMAN));
    JarvisClient human = admin.as("actor-human-1");
    return human
        .createWorkSession(
            human
                .records()
                .workSession(
                    "Summarise.", "worker-human-1", "worker-agent-1", "policy-bounded-001"))
        .getId();
  }

  /** What {@code serve} refuses before it listens. */
  static CliException usageError(String... args) {
    return assertThrows(
        CliException.class,
        () ->
            ServeCommand.run(
                args,
                new PrintStream(new java.io.ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new CountDownLatch(1)));
  }

  /**
   * A serve running in the background: the lines it printed before its banner, the banner, and
   * every later line as it comes (read on a thread of its own, so that serve never blocks on a full
   * pipe).
   */
  record Serving(
      List<String> notices,
      String banner,
      String url,
      BlockingQueue<String> later,
      CountDownLatch latch,
      CompletableFuture<Integer> done) {

    static Serving start(String... args) throws Exception {
      PipedInputStream pipe = new PipedInputStream();
      PrintStream out = new PrintStream(new PipedOutputStream(pipe), true, StandardCharsets.UTF_8);
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(pipe, StandardCharsets.UTF_8));
      CountDownLatch stop = new CountDownLatch(1);
      CompletableFuture<Integer> serving =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return ServeCommand.run(args, out, stop);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      List<String> notices = new ArrayList<>();
      String line = lines.readLine();
      while (line != null && !line.contains("listening on")) {
        notices.add(line);
        line = lines.readLine();
      }
      assertTrue(line != null, "serve ended before it listened: " + notices);
      Matcher url = Pattern.compile("listening on (http://\\S+)").matcher(line);
      assertTrue(url.find(), line);
      BlockingQueue<String> later = new LinkedBlockingQueue<>();
      Thread drain =
          new Thread(
              () -> {
                try {
                  for (String next = lines.readLine(); next != null; next = lines.readLine()) {
                    later.add(next);
                  }
                } catch (java.io.IOException e) {
                  // the writer ended
                }
              });
      drain.setDaemon(true);
      drain.start();
      return new Serving(List.copyOf(notices), line, url.group(1), later, stop, serving);
    }

    /** The next line serve printed after its banner; it has been printed when this is called. */
    String nextLine() throws InterruptedException {
      String next = later.poll(10, TimeUnit.SECONDS);
      assertTrue(next != null, "serve printed nothing more");
      return next;
    }

    void stop() throws Exception {
      latch.countDown();
      assertEquals(0, done.get(20, TimeUnit.SECONDS));
    }
  }

  static JarvisClient client(String base, String token, String actor) {
    return JarvisClient.create(
        JarvisClientOptions.builder()
            .baseUri(base)
            .hostAuth("Bearer " + token)
            .actorId(actor)
            .retryPolicy(RetryPolicy.NONE)
            .build());
  }

  static String sha256(String token) throws Exception {
    return java.util.HexFormat.of()
        .formatHex(
            java.security.MessageDigest.getInstance("SHA-256")
                .digest(token.getBytes(StandardCharsets.UTF_8)));
  }
}
