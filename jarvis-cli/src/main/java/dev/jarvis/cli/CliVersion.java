package dev.jarvis.cli;

import dev.jarvis.core.JarvisSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** {@code --version}: the SDK's version (filtered in at build time) and the protocol's. */
final class CliVersion implements CommandLine.IVersionProvider {

  @Override
  public String[] getVersion() {
    Properties build = new Properties();
    try (InputStream in = CliVersion.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        build.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new String[] {
      "jarvis-cli " + build.getProperty("version", "unknown"),
      "Jarvis protocol " + JarvisSpec.PROTOCOL_VERSION
    };
  }
}
