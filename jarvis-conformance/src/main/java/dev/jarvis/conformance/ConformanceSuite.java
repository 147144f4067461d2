package dev.jarvis.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks that a Jarvis host keeps the protocol: live, against any host given its base URL and a
 * token, and/or offline, judging a directory of recorded exchanges. See {@code docs/conformance.md}
 * for the checks.
 *
 * <pre>{@code
 * ConformanceReport report =
 *     ConformanceSuite.run(
 *         ConformanceConfig.live(URI.create("http://127.0.0.1:8080"), token)
 *             .reportDir(Path.of("target/conformance"))
 *             .progress(System.out)
 *             .build());
 * }</pre>
 */
public final class ConformanceSuite {

  private ConformanceSuite() {}

  /**
   * Runs every check, printing one line per check to the configured progress stream ({@code PASS},
   * {@code FAIL} or {@code SKIP} with its reason), then one {@code NOTE} line per assumption of the
   * run and the verdict, and writes the reports if a report directory is configured.
   *
   * @throws HostUnreachableException if the live host cannot be reached at all
   * @throws UncheckedIOException if the recorded directory cannot be read or the reports written
   */
  public static ConformanceReport run(ConformanceConfig config) {
    CheckRunner runner = new CheckRunner(config.progress(), config.clock());
    List<String> target = new ArrayList<>();
    config
        .baseUrl()
        .ifPresent(
            url -> {
              target.add(url.toString());
              SuiteExchanges host = new SuiteExchanges(url, config::tokenFor, config.timeout());
              LiveChecks.run(config, host, runner);
              config
                  .recordTo()
                  .ifPresent(
                      dir -> {
                        try {
                          ExchangeRecorder.write(host.exchanges(), dir);
                        } catch (IOException e) {
                          throw new UncheckedIOException("cannot record the exchanges", e);
                        }
                        config.progress().println("Exchanges recorded in " + dir);
                      });
            });
    config
        .recordedDir()
        .ifPresent(
            dir -> {
              target.add(dir.toString());
              new RecordedExchanges(runner).judge(dir);
            });
    ConformanceReport report =
        new ConformanceReport(String.join(" + ", target), runner.results(), runner.notes());
    report.notes().forEach(note -> config.progress().println("NOTE  " + note));
    config.progress().println((report.passed() ? "PASSED" : "FAILED") + ": " + report.counts());
    if (config.reportDir().isPresent()) {
      try {
        report.writeTo(config.reportDir().get());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the reports", e);
      }
      config.progress().println("Reports written to " + config.reportDir().get());
    }
    return report;
  }
}
