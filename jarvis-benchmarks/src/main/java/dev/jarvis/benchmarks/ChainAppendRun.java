package dev.jarvis.benchmarks;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Appends to WorkSessions that already exist, for the scale curves (jarvis-benchmarks/
 * scale-curves.sh): {@code jarvis-cli load} creates its own WorkSessions, so it cannot append to
 * one whose chain was seeded with a million events by SQL. Two modes:
 *
 * <ul>
 *   <li>{@code setup BASE_URL TOKEN COUNT}: registers a human Worker, an agent Worker and a human
 *       Actor (as {@code host-admin}, as the load does), creates COUNT WorkSessions through the
 *       host, and prints the Actor's id, then one WorkSession id a line.
 *   <li>{@code append BASE_URL TOKEN ACTOR WARMUP_S DURATION_S WS...}: one thread and one {@link
 *       JarvisClient} per WorkSession id, each appending {@code note.added} events to it (the
 *       client reads the cursor first, chains and hashes each event, and checks what the host
 *       stored); after the warm-up, appends started in the measured phase are counted and timed.
 *       Prints one JSON line: {@code accepted_per_second}, {@code accepted}, {@code errors}, {@code
 *       latency_micros} (p50, p99), {@code measured_seconds}.
 * </ul>
 */
public final class ChainAppendRun {

  private ChainAppendRun() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      System.err.println(
          "usage: setup BASE_URL TOKEN COUNT | append BASE_URL TOKEN ACTOR WARMUP_S DURATION_S WS...");
      System.exit(2);
    }
    URI base = URI.create(args[1]);
    String token = args[2];
    if (args[0].equals("setup")) {
      setup(base, token, Integer.parseInt(args[3]));
    } else {
      append(
          base,
          token,
          args[3],
          Integer.parseInt(args[4]),
          Integer.parseInt(args[5]),
          List.of(args).subList(6, args.length));
    }
  }

  private static JarvisClient client(URI base, String token, String actor) {
    return JarvisClient.create(
        JarvisClientOptions.builder()
            .baseUri(base)
            .hostAuth("Bearer " + token)
            .actorId(actor)
            .build());
  }

  private static void setup(URI base, String token, int count) {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String humanWorker = "w-chain-human-" + run;
    String agentWorker = "w-chain-agent-" + run;
    String human = "a-chain-human-" + run;
    try (JarvisClient admin = client(base, token, "host-admin")) {
      admin.registerWorker(admin.records().worker(humanWorker, WorkerType.HUMAN, "reviewer"));
      admin.registerWorker(admin.records().worker(agentWorker, WorkerType.AGENT, "assistant"));
      admin.registerActor(admin.records().actor(human, humanWorker, ActorType.HUMAN));
      JarvisClient actor = admin.as(human);
      System.out.println(human);
      for (int i = 0; i < count; i++) {
        ProtocolRecords records = actor.records();
        String ws = records.newId("ws-chain");
        actor.createWorkSession(
            records.workSession(
                ws, "Scale curves.", humanWorker, agentWorker, SampleRecords.POLICY_ID));
        System.out.println(ws);
      }
    }
  }

  private static void append(
      URI base, String token, String actor, int warmup, int duration, List<String> sessions)
      throws InterruptedException {
    AtomicBoolean measuring = new AtomicBoolean();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong errors = new AtomicLong();
    List<Histogram> histograms = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (String ws : sessions) {
      Histogram histogram = new Histogram(3);
      histograms.add(histogram);
      Thread thread =
          new Thread(
              () -> {
                try (JarvisClient client = client(base, token, actor)) {
                  ProtocolRecords records = client.records();
                  while (!stop.get()) {
                    boolean counted = measuring.get();
                    long start = System.nanoTime();
                    try {
                      client.appendJarvisEvent(
                          ws,
                          records.addressedEvent(
                              ws,
                              "note.added",
                              JarvisEventPayload.ObjectTypeEnum.WORK_SESSION,
                              ws,
                              "added"));
                    } catch (RuntimeException e) {
                      // A refusal or a lost answer: the client re-reads the cursor next time.
                      if (counted) {
                        errors.incrementAndGet();
                      }
                      continue;
                    }
                    if (counted && !stop.get()) {
                      histogram.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
                    }
                  }
                }
              },
              "chain-append");
      threads.add(thread);
      thread.start();
    }
    Thread.sleep(warmup * 1000L); // the run's own pace: warm-up, then the measured phase
    measuring.set(true);
    long start = System.nanoTime();
    Thread.sleep(duration * 1000L);
    stop.set(true);
    double seconds = (System.nanoTime() - start) / 1e9;
    for (Thread thread : threads) {
      thread.join(30_000);
    }
    Histogram total = new Histogram(3);
    histograms.forEach(total::add);
    System.out.printf(
        Locale.ROOT,
        "{\"accepted_per_second\": %.1f, \"accepted\": %d, \"errors\": %d, \"measured_seconds\": %.1f,"
            + " \"latency_micros\": {\"p50\": %d, \"p99\": %d}}%n",
        total.getTotalCount() / seconds,
        total.getTotalCount(),
        errors.get(),
        seconds,
        total.getValueAtPercentile(50),
        total.getValueAtPercentile(99));
  }
}
