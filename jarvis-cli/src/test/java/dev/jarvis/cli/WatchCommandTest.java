package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.cli.demo.AgentWalkthrough;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * {@code watch} against the reference host on loopback (Undertow, which declares {@code event-log}
 * and {@code event-stream}): a WorkSession's events printed as they are committed, one compact JSON
 * line each, by a watcher started before they were appended.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class WatchCommandTest {

  private static final String TOKEN = "t0k3n-watch";
  private static final AgentWalkthrough.Cast CAST = AgentWalkthrough.Cast.reference();
  private static final String OUTSIDER_WORKER = "worker-human-outsider";
  private static final String OUTSIDER_ACTOR = "actor-human-outsider";
  private static final AtomicInteger IDS = new AtomicInteger();

  /** How long a test waits for a line or the end of a run; never reached when all is well. */
  private static final long PATIENCE_SECONDS = 30;

  private static ReferenceHost host;
  private static JarvisClient client;
  private static JarvisClient human;

  private String out;
  private String err;

  @BeforeAll
  static void startTheHostAndRegisterTheCast() {
    host =
        ReferenceHost.start(ReferenceHostConfig.demo(TOKEN).policy(SampleRecords.policy()).build());
    client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri().toString())
                .hostAuth("Bearer " + TOKEN)
                .actorId(CAST.humanActor())
                .idempotencyKeys(() -> "watch-test-" + IDS.incrementAndGet())
                .build());
    human = client;
    JarvisClient admin = client.as(CAST.adminActor());
    ProtocolRecords byAdmin = admin.records();
    admin.registerWorker(byAdmin.worker(CAST.humanWorker(), WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(byAdmin.worker(CAST.agentWorker(), WorkerType.AGENT, "assistant"));
    admin.registerWorker(byAdmin.worker(OUTSIDER_WORKER, WorkerType.HUMAN, "someone else"));
    admin.registerActor(byAdmin.actor(CAST.humanActor(), CAST.humanWorker(), ActorType.HUMAN));
    admin.registerActor(byAdmin.actor(CAST.agentActor(), CAST.agentWorker(), ActorType.AGENT));
    admin.registerActor(byAdmin.actor(OUTSIDER_ACTOR, OUTSIDER_WORKER, ActorType.HUMAN));
  }

  @AfterAll
  static void stop() {
    client.close();
    host.close();
  }

  /** A WorkSession of the cast's human and agent: its genesis event is sequence 1. */
  private static String workSession() {
    return human
        .createWorkSession(
            human
                .records()
                .workSession(
                    "Answer with reviewed sources.",
                    CAST.humanWorker(),
                    CAST.agentWorker(),
                    CAST.policyId()))
        .getId();
  }

  /** The human notes something in the WorkSession: one event appended. */
  private static JarvisEvent note(String ws, String what) {
    return human.appendJarvisEvent(
        ws,
        ProtocolRecords.event(
            "note.recorded", JarvisEventPayload.ObjectTypeEnum.WORK_SESSION, ws, what));
  }

  /** {@code watch} as {@code actor} with {@code more}, the connection options first. */
  private String[] watch(String actor, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "watch",
                "--base-url",
                host.baseUri().toString(),
                "--token",
                TOKEN,
                "--actor",
                actor));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = run(args, o, e);
    out = o.toString(StandardCharsets.UTF_8);
    err = e.toString(StandardCharsets.UTF_8);
    assertFalse(out.contains(TOKEN) || err.contains(TOKEN), "the token is never printed");
    return code;
  }

  private static int run(String[] args, OutputStream o, OutputStream e) {
    return new JarvisCli()
        .run(
            args,
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(o, true, StandardCharsets.UTF_8),
            new PrintStream(e, true, StandardCharsets.UTF_8));
  }

  private static List<JsonNode> lines(String text) throws Exception {
    List<JsonNode> events = new ArrayList<>();
    for (String line : text.lines().toList()) {
      events.add(JarvisJson.mapper().readTree(line));
    }
    return events;
  }

  /** Stdout seen line by line as the command writes it, for a watcher on another thread. */
  private static final class Lines extends OutputStream {
    final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        lines.add(line.toString(StandardCharsets.UTF_8));
        line.reset();
      } else {
        line.write(b);
      }
    }

    String next() throws InterruptedException {
      String next = lines.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
      assertNotNull(next, "a line within " + PATIENCE_SECONDS + " s");
      return next;
    }
  }

  @Test
  void a_watcher_prints_the_genesis_event_and_then_each_event_appended_while_it_runs()
      throws Exception {
    String ws = workSession();
    Lines printed = new Lines();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    CompletableFuture<Integer> watching =
        CompletableFuture.supplyAsync(
            () -> run(watch(CAST.humanActor(), ws, "--count", "3"), printed, errors));

    String genesis = printed.next();
    JarvisEvent second = note(ws, "source one read");
    JarvisEvent third = note(ws, "source two read");
    List<String> lines = List.of(genesis, printed.next(), printed.next());

    assertEquals(0, watching.get(PATIENCE_SECONDS, TimeUnit.SECONDS), errors.toString());
    assertEquals("", errors.toString(StandardCharsets.UTF_8));
    assertTrue(printed.lines.isEmpty(), "nothing after the third: " + printed.lines);
    List<JsonNode> events = new ArrayList<>();
    for (String line : lines) {
      assertFalse(line.isBlank() || line.contains("\n  "), "one compact line: " + line);
      events.add(JarvisJson.mapper().readTree(line));
    }
    assertEquals(
        List.of(1L, 2L, 3L), events.stream().map(e -> e.path("sequence").asLong()).toList());
    assertEquals(ws, events.get(0).path("work_session_id").asText());
    assertEquals(second.getId(), events.get(1).path("id").asText());
    assertEquals(third.getId(), events.get(2).path("id").asText());
    assertEquals(third.getEventHash(), events.get(2).path("event_hash").asText());
    assertEquals(
        events.get(1).path("event_hash").asText(), events.get(2).path("previous_hash").asText());
    assertEquals(JarvisJson.mapper().writeValueAsString(events.get(2)), lines.get(2));
  }

  @Test
  void after_one_starts_at_sequence_two() throws Exception {
    String ws = workSession();
    JarvisEvent second = note(ws, "first note");
    note(ws, "second note");

    int code = run(watch(CAST.humanActor(), ws, "--after", "1", "--count", "2"));

    assertEquals(0, code, out + err);
    assertEquals("", err);
    List<JsonNode> events = lines(out);
    assertEquals(List.of(2L, 3L), events.stream().map(e -> e.path("sequence").asLong()).toList());
    assertEquals(second.getId(), events.get(0).path("id").asText());
  }

  @Test
  void until_idle_stops_with_exit_zero_once_no_event_arrives() throws Exception {
    String ws = workSession();
    note(ws, "a note");

    int code = run(watch(CAST.humanActor(), ws, "--until-idle", "2s"));

    assertEquals(0, code, out + err);
    assertEquals(
        List.of(1L, 2L), lines(out).stream().map(e -> e.path("sequence").asLong()).toList());
  }

  @Test
  void sigterm_stops_a_watcher_in_its_own_process_with_exit_zero() throws Exception {
    String ws = workSession();
    Path errors = Files.createTempFile("watch-err", ".txt");
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(
        List.of("-cp", System.getProperty("java.class.path"), JarvisCli.class.getName()));
    command.addAll(List.of(watch(CAST.humanActor(), ws)));
    Process watcher =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.to(errors.toFile()))
            .start();
    try {
      BufferedReader printed =
          new BufferedReader(
              new InputStreamReader(watcher.getInputStream(), StandardCharsets.UTF_8));
      String genesis =
          CompletableFuture.supplyAsync(() -> readLine(printed))
              .get(PATIENCE_SECONDS, TimeUnit.SECONDS);
      assertEquals(1, JarvisJson.mapper().readTree(genesis).path("sequence").asLong(), genesis);

      watcher.destroy(); // SIGTERM

      assertTrue(watcher.waitFor(PATIENCE_SECONDS, TimeUnit.SECONDS), "stopped");
      assertEquals(0, watcher.exitValue(), Files.readString(errors));
      assertEquals("", Files.readString(errors));
    } finally {
      watcher.destroyForcibly();
      Files.deleteIfExists(errors);
    }
  }

  private static String readLine(BufferedReader reader) {
    try {
      return reader.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void an_outsider_actor_is_refused_with_the_hosts_error_id_and_exit_one() {
    String ws = workSession();

    int code = run(watch(OUTSIDER_ACTOR, ws, "--count", "1"));

    assertEquals(1, code, out + err);
    assertEquals("", out);
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("jarvis-cli watch: unauthorized_actor: "), err);
  }

  @Test
  void a_missing_work_session_is_a_usage_error_with_exit_two() {
    int code = run(watch(CAST.humanActor(), "--count", "1"));

    assertEquals(2, code, out + err);
    assertEquals("", out);
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.contains("WORK_SESSION_ID"), err);
  }

  @Test
  void a_count_below_one_is_a_usage_error_sent_nowhere() {
    assertEquals(2, run(watch(CAST.humanActor(), "ws-any", "--count", "0")));
    assertTrue(err.contains("--count must be at least 1"), err);
    assertEquals(2, run(watch(CAST.humanActor(), "ws-any", "--until-idle", "soon")));
    assertTrue(err.contains("20m"), err);
  }

  @Test
  void without_a_host_it_is_a_usage_error_naming_the_connection_options() {
    assertEquals(2, run("watch", "ws-any", "--count", "1"));
    assertTrue(err.contains("--base-url"), err);
  }
}
