package dev.jarvis.benchmarks;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/**
 * The live loop's costs (docs/benchmarks.md, "Live event streams"), against hosts running in other
 * processes ({@code jarvis-cli serve --token}, started and pinned by {@code
 * jarvis-benchmarks/live-loop.sh}):
 *
 * <ol>
 *   <li>latency from an append to its frame on a subscriber's stream, p50/p99, the subscriber on
 *       the same instance or on a second instance sharing the database;
 *   <li>the host's CPU and memory while 1,000 subscribers sit idle, against none;
 *   <li>appends per second and host CPU per append with the 1,000 subscribers attached (to another
 *       WorkSession) against none, measured before and after (each after its own warm-up).
 * </ol>
 *
 * <p>Arguments: {@code APPEND_URL SUBSCRIBE_URL TOKEN HOST_PID [SUBSCRIBERS] [WINDOW_S]}. The
 * host's CPU is read from {@code /proc/HOST_PID} (user + system time), its resident memory and
 * threads from {@code /proc/HOST_PID/status}.
 */
public final class LiveLoopRun {

  private static final String HUMAN_WORKER = "w-live-human";
  private static final String AGENT_WORKER = "w-live-agent";
  private static final String HUMAN = "a-live-human";
  private static final int PER_ACTOR = 16;

  private final JarvisClient human;
  private final URI subscribeBase;
  private final String token;
  private final int hostPid;
  private final HttpClient http = HttpClient.newHttpClient();

  private LiveLoopRun(URI appendBase, URI subscribeBase, String token, int hostPid) {
    this.subscribeBase = subscribeBase;
    this.token = token;
    this.hostPid = hostPid;
    this.human =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(appendBase)
                .hostAuth("Bearer " + token)
                .actorId(HUMAN)
                .build());
  }

  public static void main(String[] args) throws Exception {
    URI append = URI.create(args[0]);
    URI subscribe = URI.create(args[1]);
    String token = args[2];
    int pid = Integer.parseInt(args[3]);
    int subscribers = args.length > 4 ? Integer.parseInt(args[4]) : 1000;
    int window = args.length > 5 ? Integer.parseInt(args[5]) : 20;
    LiveLoopRun run = new LiveLoopRun(append, subscribe, token, pid);
    String busy = run.setUp(subscribers);
    String idle = run.session("Idle, watched.");
    System.out.printf(
        Locale.ROOT,
        "append=%s subscribe=%s subscribers=%d window=%ds cpus=%d%n",
        append,
        subscribe,
        subscribers,
        window,
        Runtime.getRuntime().availableProcessors());
    run.latency(busy, 100, false);
    run.latency(busy, 500, true);
    if (subscribers == 0) {
      run.human.close();
      return;
    }
    run.appends(busy, window, "warm-up appends");
    if (args.length > 6 && args[6].equals("idle")) {
      run.idleOnly(idle, subscribers, window);
      run.human.close();
      return;
    }
    Sample none = run.sample("idle, no subscriber", window);
    Sample appendsNone = run.appends(busy, window, "appends, no subscriber");
    List<Stream> streams = run.subscribeAll(idle, subscribers);
    // The subscriptions ran code the appends had not: the JIT recompiles what they share (measured
    // on 0266b3e: a C2 thread busy for seconds after they opened). Warm up again, so that both
    // sides are measured on settled code.
    run.appends(busy, window, "warm-up appends, " + subscribers + " subscribers");
    Sample attached = run.sample("idle, " + subscribers + " subscribers", window);
    Sample appendsAttached =
        run.appends(busy, window, "appends, " + subscribers + " subscribers on another session");
    streams.forEach(Stream::cancel);
    // Gone once the host's next heartbeat to each finds the connection closed.
    TimeUnit.SECONDS.sleep(20);
    // Again without: the in-memory store grew meanwhile (every append is kept), so "without" is
    // measured on both sides of "with" and compared with their mean.
    Sample appendsNoneAfter = run.appends(busy, window, "appends, no subscriber (after)");
    double without = (appendsNone.cpuMicrosPerUnit() + appendsNoneAfter.cpuMicrosPerUnit()) / 2;
    System.out.printf(
        Locale.ROOT,
        "idle host CPU: %.4f s/s without, %.4f s/s with %d subscribers (+%.4f s/s); RSS %d -> %d"
            + " KiB; threads %d -> %d%n",
        none.cpuPerSecond(),
        attached.cpuPerSecond(),
        subscribers,
        attached.cpuPerSecond() - none.cpuPerSecond(),
        none.rssKib(),
        attached.rssKib(),
        none.threadsNow(),
        attached.threadsNow());
    System.out.printf(
        Locale.ROOT,
        "appends: %.1f us host CPU each without (%.1f before, %.1f after); %.1f us with (%+.1f%%)%n",
        without,
        appendsNone.cpuMicrosPerUnit(),
        appendsNoneAfter.cpuMicrosPerUnit(),
        appendsAttached.cpuMicrosPerUnit(),
        100 * (appendsAttached.cpuMicrosPerUnit() / without - 1));
    run.human.close();
  }

  /**
   * The idle cost alone, to nanoseconds (each thread's time on a CPU from {@code schedstat}, not 10
   * ms ticks): the host idle without a subscriber, then with them, twice each, the JIT compiler
   * threads apart. Run against hosts with different {@code --stream-heartbeat} values, the
   * difference per heartbeat written is the cost of one heartbeat, and a heartbeat longer than the
   * window shows what an idle stream costs besides its heartbeats.
   */
  private void idleOnly(String ws, int subscribers, int window) throws Exception {
    long[] none1 = idleNanos(window);
    List<Stream> streams = subscribeAll(ws, subscribers);
    // The subscriptions' code compiles for a while after they open: let it settle first.
    idleNanos(window);
    long[] with1 = idleNanos(window);
    long[] with2 = idleNanos(window);
    streams.forEach(Stream::cancel);
    // Streams cancelled here end at their next heartbeat; with a long one they stay until the
    // host's idle timeout, so "without" after them is measured only on a fresh host.
    System.out.printf(
        Locale.ROOT,
        "idle-only: window %d s; host CPU without %.6f s/s; with %d subscribers %.6f, %.6f s/s;"
            + " JIT apart (without %.6f, with %.6f, %.6f s/s)%n",
        window,
        none1[0] / 1e9 / window,
        subscribers,
        with1[0] / 1e9 / window,
        with2[0] / 1e9 / window,
        none1[1] / 1e9 / window,
        with1[1] / 1e9 / window,
        with2[1] / 1e9 / window);
  }

  /** CPU nanoseconds over {@code seconds}: all but the JIT compiler threads, and those. */
  private long[] idleNanos(int seconds) throws Exception {
    Map<String, ThreadTime> before = threadTimes();
    TimeUnit.SECONDS.sleep(seconds);
    long rest = 0;
    long jit = 0;
    for (var e : threadTimes().entrySet()) {
      ThreadTime now = e.getValue();
      // A thread started within the window counts from zero.
      long delta =
          now.nanos()
              - before.getOrDefault(e.getKey(), new ThreadTime(0, now.jit(), now.group())).nanos();
      if (now.jit()) {
        jit += delta;
      } else {
        rest += delta;
      }
    }
    return new long[] {rest, jit};
  }

  /** One host thread's time on a CPU so far ({@code schedstat}), and whether it compiles. */
  private record ThreadTime(long nanos, boolean jit, String group) {}

  /**
   * Where a window's host CPU went: each thread group's time on a CPU (schedstat) per unit, the
   * largest first, threads grouped by name without their numbers ("XNIO-1 task-7" in "XNIO-1
   * task-"). A thread that started in the window counts from zero; one that ended is left out.
   */
  private static String byGroup(
      Map<String, ThreadTime> before, Map<String, ThreadTime> after, int units) {
    Map<String, Long> groups = new HashMap<>();
    after.forEach(
        (tid, now) -> {
          ThreadTime then = before.get(tid);
          groups.merge(now.group(), now.nanos() - (then == null ? 0 : then.nanos()), Long::sum);
        });
    StringBuilder line = new StringBuilder();
    groups.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(8)
        .forEach(
            e ->
                line.append(
                    String.format(
                        Locale.ROOT,
                        "%s%s %.1f",
                        line.length() == 0 ? "" : ", ",
                        e.getKey(),
                        e.getValue() / 1e3 / Math.max(1, units))));
    return line.toString();
  }

  /** Each host thread's time on a CPU, by thread id. */
  private Map<String, ThreadTime> threadTimes() throws IOException {
    Map<String, ThreadTime> threads = new HashMap<>();
    try (var tasks = Files.list(Path.of("/proc/" + hostPid + "/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          long ns = Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
          String name = Files.readString(task.resolve("comm")).strip();
          threads.put(
              task.getFileName().toString(),
              new ThreadTime(ns, isJitThread(name), name.replaceAll("[0-9]+$", "")));
        } catch (IOException threadEnded) {
          // A thread that ended between the listing and the read: its last slice is not counted.
        }
      }
    }
    return threads;
  }

  /** Workers, Actors (the human; agents enough for the subscribers), the busy WorkSession. */
  private String setUp(int subscribers) {
    JarvisClient admin = human.as("host-admin");
    admin.registerWorker(admin.records().worker(HUMAN_WORKER, WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(admin.records().worker(AGENT_WORKER, WorkerType.AGENT, "assistant"));
    admin.registerActor(admin.records().actor(HUMAN, HUMAN_WORKER, ActorType.HUMAN));
    for (int i = 0; i < (subscribers + PER_ACTOR - 1) / PER_ACTOR; i++) {
      admin.registerActor(admin.records().actor(agent(i), AGENT_WORKER, ActorType.AGENT));
    }
    return session("Busy, appended to.");
  }

  private static String agent(int i) {
    return "a-live-agent-" + i;
  }

  private String session(String objective) {
    return human
        .createWorkSession(
            human
                .records()
                .workSession(
                    objective,
                    HUMAN_WORKER,
                    AGENT_WORKER,
                    SampleRecords.policy().path("id").asText()))
        .getId();
  }

  private JarvisEvent note(String ws) {
    return human.appendJarvisEvent(
        ws,
        ProtocolRecords.event(
            "note.added", JarvisEventPayload.ObjectTypeEnum.WORK_SESSION, ws, "added"));
  }

  /** Append to frame, one append at a time, the subscriber on SUBSCRIBE_URL. */
  private void latency(String ws, int appends, boolean report) throws Exception {
    Stream stream = subscribe(ws, HUMAN, human.currentCursor(ws).revision());
    long[] nanos = new long[appends];
    for (int i = 0; i < appends; i++) {
      long start = System.nanoTime();
      long sequence = note(ws).getSequence();
      stream.awaitSequence(sequence);
      nanos[i] = System.nanoTime() - start;
    }
    stream.cancel();
    if (report) {
      Arrays.sort(nanos);
      System.out.printf(
          Locale.ROOT,
          "append -> frame (request sent to frame read, one at a time, %d): p50 %.2f ms, p99 %.2f"
              + " ms, max %.2f ms%n",
          appends,
          nanos[appends / 2] / 1e6,
          nanos[(int) (appends * 0.99)] / 1e6,
          nanos[appends - 1] / 1e6);
    }
  }

  private List<Stream> subscribeAll(String ws, int count) throws Exception {
    List<Stream> streams = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      streams.add(subscribe(ws, agent(i / PER_ACTOR), 0));
    }
    for (Stream s : streams) {
      s.awaitSequence(1);
    }
    return streams;
  }

  private Sample sample(String what, int seconds) throws Exception {
    long[] before = proc();
    long start = System.nanoTime();
    TimeUnit.SECONDS.sleep(seconds);
    Sample s = new Sample(what, System.nanoTime() - start, proc(), before, 0);
    System.out.printf(
        Locale.ROOT,
        "%s: host CPU %.4f s/s (JIT compiler threads %.4f s/s)%n",
        what,
        s.cpuPerSecond(),
        s.jitPerSecond());
    return s;
  }

  private Sample appends(String ws, int seconds, String what) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Map<String, ThreadTime> threadsBefore = threadTimes();
    long[] before = proc();
    long start = System.nanoTime();
    int done = 0;
    while (System.nanoTime() < until) {
      note(ws);
      done++;
    }
    Sample s = new Sample(what, System.nanoTime() - start, proc(), before, done);
    Map<String, ThreadTime> threadsAfter = threadTimes();
    System.out.printf(
        Locale.ROOT,
        "%s: %.0f appends/s, %.1f us host CPU per append (JIT compiler threads %.1f us)%n"
            + "  us per append by thread: %s%n",
        what,
        s.perSecond(),
        s.cpuMicrosPerUnit(),
        s.jitPerSecond() * 1e6 / s.perSecond(),
        byGroup(threadsBefore, threadsAfter, done));
    return s;
  }

  /** The host's CPU ticks (user + system), resident KiB and threads. */
  private long[] proc() throws IOException {
    long ticks = cpuTicks(Path.of("/proc/" + hostPid + "/stat"));
    long rss = 0;
    long threads = 0;
    for (String line : Files.readAllLines(Path.of("/proc/" + hostPid + "/status"))) {
      if (line.startsWith("VmRSS:")) {
        rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
      } else if (line.startsWith("Threads:")) {
        threads = Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return new long[] {ticks, rss, threads, jitTicks()};
  }

  /** User + system CPU ticks from a {@code /proc} {@code stat} file (a process's or a thread's). */
  private static long cpuTicks(Path stat) throws IOException {
    String text = Files.readString(stat);
    // Fields after the command name, which is in parentheses and may hold spaces.
    String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /**
   * The CPU ticks of the host's JIT compiler threads: code the host had not run before (the
   * subscriptions' paths) is compiled for seconds after, a one-time cost reported apart.
   */
  private long jitTicks() throws IOException {
    long ticks = 0;
    try (var tasks = Files.list(Path.of("/proc/" + hostPid + "/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          if (!isJitThread(Files.readString(task.resolve("comm")))) {
            continue;
          }
          ticks += cpuTicks(task.resolve("stat"));
        } catch (IOException threadEnded) {
          // A compiler thread that ended between the listing and the read counted nothing.
        }
      }
    }
    return ticks;
  }

  /**
   * Whether a thread, by its {@code /proc/PID/task/TID/comm} name, is one of the JIT compiler
   * threads: "C1 CompilerThre", "C2 CompilerThre" (names cut at 15 characters).
   */
  private static boolean isJitThread(String threadName) {
    return threadName.contains("CompilerThre");
  }

  private record Sample(String what, long nanos, long[] after, long[] before, int units) {
    long rssKib() {
      return after[1];
    }

    long threadsNow() {
      return after[2];
    }

    double cpuSeconds() {
      return (after[0] - before[0]) / 100.0;
    }

    double cpuPerSecond() {
      return cpuSeconds() / (nanos / 1e9);
    }

    /** Of {@link #cpuPerSecond}, what the JIT compiler threads took. */
    double jitPerSecond() {
      return (after[3] - before[3]) / 100.0 / (nanos / 1e9);
    }

    double perSecond() {
      return units / (nanos / 1e9);
    }

    double cpuMicrosPerUnit() {
      return cpuSeconds() * 1e6 / units;
    }
  }

  /** One SSE subscriber on SUBSCRIBE_URL: counts frames, remembers the last sequence. */
  private Stream subscribe(String ws, String actor, long after) {
    Stream stream = new Stream();
    HttpRequest request =
        HttpRequest.newBuilder(subscribeBase.resolve("work-sessions/" + ws + "/events"))
            .header("Accept", EventStream.MEDIA_TYPE)
            .header(EventStream.LAST_EVENT_ID, Long.toString(after))
            .header("Authorization", "Bearer " + token)
            .header("Jarvis-Protocol-Version", "v0.1")
            .header("Jarvis-Actor-Id", actor)
            .build();
    http.sendAsync(request, HttpResponse.BodyHandlers.fromLineSubscriber(stream))
        .whenComplete(
            (response, failure) -> {
              if (failure != null || response.statusCode() != 200) {
                stream.failed(
                    failure != null
                        ? failure.toString()
                        : "status " + (response == null ? "?" : response.statusCode()));
              }
            });
    return stream;
  }

  private static final class Stream implements Flow.Subscriber<String> {
    private final EventStream.Reader reader = new EventStream.Reader();
    private final ConcurrentHashMap<Long, CountDownLatch> waits = new ConcurrentHashMap<>();
    private volatile long last;
    private volatile Flow.Subscription subscription;
    private volatile Optional<String> failure = Optional.empty();

    void awaitSequence(long sequence) throws InterruptedException {
      CountDownLatch latch = waits.computeIfAbsent(sequence, s -> new CountDownLatch(1));
      if (last >= sequence) {
        return;
      }
      if (!latch.await(30, TimeUnit.SECONDS) || failure.isPresent()) {
        throw new IllegalStateException(
            "no frame " + sequence + " within 30 s " + failure.orElse(""));
      }
    }

    void failed(String why) {
      failure = Optional.of(why);
      waits.values().forEach(CountDownLatch::countDown);
    }

    void cancel() {
      if (subscription != null) {
        subscription.cancel();
      }
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(String line) {
      reader
          .line(line)
          .ifPresent(
              item -> {
                if (item instanceof EventStream.Reader.Item.Frame frame) {
                  long sequence = Long.parseLong(frame.id().orElse("0"));
                  last = sequence;
                  waits.computeIfAbsent(sequence, s -> new CountDownLatch(1)).countDown();
                }
              });
    }

    @Override
    public void onError(Throwable t) {
      failed(t.toString());
    }

    @Override
    public void onComplete() {}
  }
}
