package dev.jarvis.client.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The SDK's version, as the build wrote it into {@code sdk-version.properties} (a filtered
 * resource), read once: the {@code User-Agent} names it, so that a host's logs tell which release
 * called without anyone editing a constant at release time.
 */
public final class SdkVersion {

  private static final String VERSION = read();

  private SdkVersion() {}

  /** The project version, such as {@code 1.0.0}. */
  public static String version() {
    return VERSION;
  }

  /**
   * {@code jarvis-java-sdk/VERSION}: the product token every request's {@code User-Agent} opens
   * with.
   */
  public static String userAgent() {
    return "jarvis-java-sdk/" + VERSION;
  }

  private static String read() {
    Properties build = new Properties();
    try (InputStream in = SdkVersion.class.getResourceAsStream("sdk-version.properties")) {
      if (in == null) {
        // Only a build that skipped resource processing gets here; the jar always has the file.
        throw new IllegalStateException("sdk-version.properties is missing from jarvis-client");
      }
      build.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return build.getProperty("version");
  }
}
