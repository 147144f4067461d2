package dev.jarvis.core.canonical;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The RFC 8785 vectors, copied from {@code shared/vectors/jcs} into the test resources under {@code
 * jcs/} so that the tests need no sibling folder. {@link #sharedDir()} is where the originals are,
 * for the test that the copies are still the same.
 */
final class Vectors {

  /** The vector pairs of {@code jcs/input} and {@code jcs/output}. */
  static final List<String> PAIRS =
      List.of(
          "arrays.json",
          "french.json",
          "structures.json",
          "unicode.json",
          "values.json",
          "weird.json");

  /** Every vector file copied, relative to {@code jcs/}. */
  static final List<String> FILES = files();

  private Vectors() {}

  static byte[] bytes(String name) {
    try (InputStream in = Vectors.class.getResourceAsStream("/jcs/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no test resource jcs/" + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The lines of a text vector, without comments ({@code #}) and blank lines. */
  static List<String> lines(String name) {
    List<String> lines = new ArrayList<>();
    for (String line : new String(bytes(name), StandardCharsets.UTF_8).split("\n", -1)) {
      String l = line.strip();
      if (!l.isEmpty() && !l.startsWith("#")) {
        lines.add(l);
      }
    }
    return lines;
  }

  /**
   * {@code ${jarvis.shared}/vectors/jcs}, where the system property {@code jarvis.shared} defaults
   * to {@code ../../shared}: the project's sibling {@code shared/} seen from the module directory.
   */
  static Path sharedDir() {
    return Path.of(System.getProperty("jarvis.shared", "../../shared"), "vectors", "jcs");
  }

  private static List<String> files() {
    List<String> files = new ArrayList<>();
    files.add("LICENSE.cyberphone");
    files.add("appendix-b-numbers.csv");
    files.add("es6testfile_1000.txt");
    files.add("sort-3.2.3.expected-order.txt");
    files.add("sort-3.2.3.input.json");
    files.add("sort-3.2.3.output.json");
    files.add("values-3.2.4.outhex.txt");
    for (String pair : PAIRS) {
      files.add("input/" + pair);
      files.add("output/" + pair);
    }
    return List.copyOf(files);
  }
}
