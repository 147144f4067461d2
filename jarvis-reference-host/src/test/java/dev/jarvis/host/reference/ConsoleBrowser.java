package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium from the system's packages ({@code chromium}, {@code chromium-driver}), driven
 * through its own {@code chromedriver}: Selenium Manager is never asked to download anything. In CI
 * ({@code CI=true}) a missing browser fails the test ({@code .ci/run} installs it); elsewhere the
 * browser tests are skipped with a message saying what to install.
 *
 * <p>As an extension it keeps a screenshot of every failed test under {@code
 * target/console-screenshots/}, taken right after the test, before the browser closes.
 */
final class ConsoleBrowser implements AfterTestExecutionCallback, AutoCloseable {

  static final Path FAILURES = Path.of("target", "console-screenshots");

  private ChromeDriver driver;
  private Path profile;

  /** The browser, started on first use. */
  ChromeDriver driver() {
    if (driver == null) {
      driver = start();
    }
    return driver;
  }

  private ChromeDriver start() {
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
    try {
      profile = Files.createTempDirectory("jarvis-console-chromium");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.get().toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
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
    ChromeDriver started = new ChromeDriver(service, options);
    started.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
    return started;
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

  /** Saves the page as a PNG. */
  void screenshot(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.write(file, driver().getScreenshotAs(OutputType.BYTES));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    if (context.getExecutionException().isPresent() && driver != null) {
      try {
        screenshot(FAILURES.resolve(context.getRequiredTestMethod().getName() + ".png"));
      } catch (RuntimeException e) {
        context.getExecutionException().get().addSuppressed(e);
      }
    }
  }

  @Override
  public void close() {
    if (driver != null) {
      driver.quit();
      driver = null;
    }
    if (profile != null) {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // A temporary profile left behind harms nothing.
      }
      profile = null;
    }
  }
}
