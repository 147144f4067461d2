package dev.jarvis.benchmarks;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.jarvis.cli.load.LoadGenerator;
import dev.jarvis.cli.load.LoadOperation;
import dev.jarvis.cli.load.LoadPlan;
import dev.jarvis.cli.load.LoadResults;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.store.jdbc.JdbcHostStores;
import dev.jarvis.store.jdbc.JdbcStoreSettings;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Host load run: scoped mutations ({@code appendJarvisEvent}, correct cursors) per second and
 * latency percentiles on loopback, several connections each on its own WorkSession, against (a) the
 * reference host and (b) WireMock answering the same requests with canned answers ({@link
 * CannedWireMock}), in one JVM and one run. The load is {@code jarvis-cli load}'s own generator
 * ({@link LoadGenerator}) in its light mode ({@link LoadPlan.Builder#light()}): events written from
 * a template over a plain socket per connection, answers not checked against the spec (the chain
 * and the cursors still are). Per target a warm-up and a measured phase. Run: see
 * docs/benchmarks.md.
 *
 * <p>Arguments (all optional): connections, warm-up seconds, measured seconds, a PostgreSQL JDBC
 * URL. With the URL it also runs the reference host on PostgreSQL, one instance and two instances
 * sharing the database (connections split between them), each in a fresh schema dropped afterwards.
 */
public final class HostLoadRun {

  static final String TOKEN = "bench-token";

  /** Held here: JUL keeps loggers weakly, and a collected logger forgets its level. */
  static final Logger REQUEST_LOG = Logger.getLogger("dev.jarvis.host.reference.requests");

  private HostLoadRun() {}

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    int warmUpSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    int measuredSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    Optional<String> postgres = args.length > 3 ? Optional.of(args[3]) : Optional.empty();
    // The reference host logs one line per request at INFO; a console log line per request would
    // measure the terminal, so the request log is kept quiet here.
    REQUEST_LOG.setLevel(java.util.logging.Level.WARNING);
    System.out.printf(
        Locale.ROOT,
        "threads=%d warm-up=%ds measured=%ds cpus=%d java=%s%n",
        threads,
        warmUpSeconds,
        measuredSeconds,
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"));
    LoadPlan.Builder plan =
        LoadPlan.builder(URI.create("http://127.0.0.1/"), TOKEN)
            .connections(threads)
            .warmup(Duration.ofSeconds(warmUpSeconds))
            .duration(Duration.ofSeconds(measuredSeconds))
            .operation(LoadOperation.appendJarvisEvent)
            .light();
    List<String> results = new ArrayList<>();

    try (ReferenceHost host =
        ReferenceHost.start(
            ReferenceHostConfig.demo(TOKEN).policy(SampleRecords.policy()).build())) {
      results.add(run("reference host", plan.hosts(List.of(host.baseUri())).build()));
    }
    if (postgres.isPresent()) {
      for (int instances = 1; instances <= 2; instances++) {
        results.add(onPostgres(postgres.get(), instances, threads, plan));
      }
    }
    WireMockServer wireMock = CannedWireMock.start(0);
    try {
      URI base = URI.create("http://127.0.0.1:" + wireMock.port());
      results.add(run("WireMock canned", plan.hosts(List.of(base)).build()));
    } finally {
      wireMock.stop();
    }
    System.out.println();
    results.forEach(System.out::println);
  }

  /**
   * The reference host on PostgreSQL: {@code instances} hosts on one fresh schema, the connections
   * spread over them in turn.
   */
  static String onPostgres(String url, int instances, int threads, LoadPlan.Builder plan)
      throws Exception {
    String schema = "jarvis_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    List<ReferenceHost> hosts = new ArrayList<>();
    try {
      for (int i = 0; i < instances; i++) {
        hosts.add(
            ReferenceHost.start(
                ReferenceHostConfig.demo(TOKEN)
                    .policy(SampleRecords.policy())
                    .stores(
                        JdbcHostStores.open(
                            JdbcStoreSettings.of(url)
                                .withSchema(schema)
                                .withPoolSize(Math.max(4, threads / instances))))
                    .build()));
      }
      return run(
          "reference host, PostgreSQL, " + instances + " instance(s)",
          plan.hosts(hosts.stream().map(ReferenceHost::baseUri).toList()).build());
    } finally {
      hosts.forEach(ReferenceHost::close);
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
    }
  }

  /** One target under the load; its summary line, printed and returned. */
  static String run(String name, LoadPlan plan) throws Exception {
    LoadResults measured = LoadGenerator.run(plan);
    String line =
        String.format(
            Locale.ROOT,
            "%-40s %8.0f req/s  p50 %7d µs  p99 %7d µs  p99.9 %7d µs  (%d ok, %d errors,"
                + " %.1f s)",
            name,
            measured.perSecond(),
            measured.latencies().getValueAtPercentile(50),
            measured.latencies().getValueAtPercentile(99),
            measured.latencies().getValueAtPercentile(99.9),
            measured.accepted(),
            measured.errors(),
            measured.measuredNanos() / 1e9);
    System.out.println(line);
    return line;
  }
}
