package dev.jarvis.apicheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/architecture.md} is the page a new contributor follows through the code: every
 * module, class, {@code Class.member} and package it names in backticks must exist, or the walk
 * breaks at that hop. Read from the sources (hand-written and generated), so it covers every
 * module, published or not. (The client's link order is held by {@code ArchitectureDocPipelineTest}
 * in jarvis-client.)
 */
class ArchitectureDocTest {

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final Path DOC = ROOT.resolve("docs/architecture.md");

  /** Types the page names that are not ours: the libraries it says we build on. */
  private static final Set<String> LIBRARY_TYPES =
      Set.of(
          "StreamReadConstraints", // Jackson: the nesting limit held by the one parse
          "HttpServerExchange", // Undertow
          "ServletOutputStream", // Jakarta Servlet
          "WriteListener", // Jakarta Servlet
          "StreamingOutput", // JAX-RS
          "Interceptor", // OkHttp, the model we imitate
          "HttpPipelinePolicy"); // Azure SDK, ditto

  private static final Pattern BACKTICKED = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern MODULE = Pattern.compile("jarvis-[a-z0-9-]+");
  private static final Pattern TYPE_OR_MEMBER =
      Pattern.compile("(?:[a-z]+/)?([A-Z][A-Za-z0-9]*)(?:\\.([A-Za-z_][A-Za-z0-9_]*)(?:\\(\\))?)?");
  private static final Pattern PACKAGE = Pattern.compile("dev\\.jarvis(?:\\.[a-z][a-z0-9]*)+");
  private static final Pattern DECLARATION =
      Pattern.compile("\\b(?:class|interface|record|enum)\\s+([A-Z][A-Za-z0-9]*)");
  private static final Pattern MODULE_PACKAGE =
      Pattern.compile("\\b(?:exports|opens)\\s+([a-z][a-z0-9.]*)");
  private static final Pattern PACKAGE_LINE = Pattern.compile("(?m)^package\\s+([a-z0-9.]+);");

  private static final Map<String, List<Path>> declaredIn = new HashMap<>();
  private static final Set<String> packages = new TreeSet<>();
  // The spec's component schemas: the page may name one (the recursive PortableValue).
  private static final Set<String> specSchemas = new TreeSet<>();

  @BeforeAll
  static void readTheSources() throws IOException {
    try (Stream<Path> files = Files.walk(ROOT)) {
      files
          .filter(f -> f.toString().endsWith(".java"))
          .filter(ArchitectureDocTest::isSource)
          .forEach(ArchitectureDocTest::index);
    }
    // Packages that hold resources only (the spec, the store's migrations).
    try (Stream<Path> dirs = Files.walk(ROOT)) {
      dirs.filter(Files::isDirectory)
          .map(d -> ROOT.relativize(d).toString().replace('\\', '/'))
          .filter(d -> d.matches("[^/.][^/]*/src/main/resources/dev/jarvis/.*"))
          .forEach(
              d ->
                  packages.add(d.replaceFirst("^[^/]+/src/main/resources/", "").replace('/', '.')));
    }
    Matcher schema =
        Pattern.compile("(?m)^    ([A-Z][A-Za-z0-9]*):$")
            .matcher(Files.readString(ROOT.resolve("spec/jarvis-openapi.yaml")));
    while (schema.find()) {
      specSchemas.add(schema.group(1));
    }
  }

  /** Hand-written sources of any kind, and what the build generated from the spec. */
  private static boolean isSource(Path file) {
    String path = ROOT.relativize(file).toString().replace('\\', '/');
    return !path.startsWith(".")
        && (path.contains("/src/") || path.contains("/target/generated-sources/"))
        && !path.contains("/node_modules/");
  }

  private static void index(Path file) {
    String source;
    try {
      source = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Matcher pkg = PACKAGE_LINE.matcher(source);
    if (pkg.find()) {
      packages.add(pkg.group(1));
    }
    // A module opens or exports a package by name (dev.jarvis.spec: the spec file, resources only).
    Matcher opened = MODULE_PACKAGE.matcher(source);
    while (opened.find()) {
      packages.add(opened.group(1));
    }
    Matcher m = DECLARATION.matcher(source);
    while (m.find()) {
      declaredIn.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(file);
    }
  }

  @Test
  void everyModuleClassMemberAndPackageThePageNamesExists() throws IOException {
    List<String> missing = new ArrayList<>();
    int checked = 0;
    Matcher token = BACKTICKED.matcher(Files.readString(DOC));
    while (token.find()) {
      String name = token.group(1).strip();
      if (MODULE.matcher(name).matches()) {
        checked++;
        if (!Files.isRegularFile(ROOT.resolve(name).resolve("pom.xml"))) {
          missing.add("module " + name);
        }
      } else if (PACKAGE.matcher(name).matches()) {
        checked++;
        if (packages.stream().noneMatch(p -> p.equals(name) || p.startsWith(name + "."))) {
          missing.add("package " + name);
        }
      } else {
        Matcher tm = TYPE_OR_MEMBER.matcher(name);
        if (!tm.matches() || LIBRARY_TYPES.contains(tm.group(1))) {
          continue;
        }
        checked++;
        String type = tm.group(1);
        List<Path> files = declaredIn.getOrDefault(type, List.of());
        if (files.isEmpty() && !(tm.group(2) == null && specSchemas.contains(type))) {
          missing.add("type " + name);
        } else if (tm.group(2) != null && files.stream().noneMatch(f -> names(f, tm.group(2)))) {
          missing.add("member " + name);
        }
      }
    }
    assertTrue(checked > 100, "the page names " + checked + " things; did its form change?");
    assertEquals(List.of(), missing, "named in docs/architecture.md, not in the code");
  }

  @Test
  void theModuleMapNamesEveryModuleOfTheBuild() throws IOException {
    String doc = Files.readString(DOC);
    String map = doc.substring(doc.indexOf("## The module map"), doc.indexOf("## One request"));
    Matcher module =
        Pattern.compile("<module>([^<]+)</module>")
            .matcher(Files.readString(ROOT.resolve("pom.xml")));
    List<String> unmapped = new ArrayList<>();
    while (module.find()) {
      if (!Pattern.compile("\\b" + Pattern.quote(module.group(1)) + "\\b(?!-)")
          .matcher(map)
          .find()) {
        unmapped.add(module.group(1));
      }
    }
    assertEquals(List.of(), unmapped, "modules of the build missing from the module map");
  }

  /**
   * Whether the file declaring the type uses {@code member} as a name (method, field, constant).
   */
  private static boolean names(Path file, String member) {
    try {
      return Pattern.compile("\\b" + Pattern.quote(member) + "\\b")
          .matcher(Files.readString(file))
          .find();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
