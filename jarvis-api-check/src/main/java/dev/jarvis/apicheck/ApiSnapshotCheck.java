package dev.jarvis.apicheck;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares the public API of every published module with the snapshot committed at {@code
 * <module>/api/<module>.api}, or rewrites the snapshots when asked to accept the change.
 *
 * <p>The published modules are the ones {@code jarvis-bom/pom.xml} lists, so a new module needs no
 * second list here; its built classes are found on this module's classpath (it depends on each,
 * without their own dependencies).
 *
 * <p>Argument: the project root directory; {@code -Djarvis.api.accept=true} rewrites instead of
 * comparing.
 */
public final class ApiSnapshotCheck {

  static final String ACCEPT_COMMAND = "scripts/accept-api.sh";

  private static final Pattern BOM_ARTIFACT =
      Pattern.compile("<groupId>dev\\.jarvis</groupId>\\s*<artifactId>([a-z0-9-]+)</artifactId>");

  private ApiSnapshotCheck() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("argument: <project root>");
    }
    Path root = Path.of(args[0]).toAbsolutePath().normalize();
    boolean accept = Boolean.getBoolean("jarvis.api.accept");
    List<String> classpath =
        List.of(System.getProperty("java.class.path").split(File.pathSeparator));
    List<String> failures = new ArrayList<>();
    for (String module : publishedModules(root)) {
      Path classes =
          classesOf(module, classpath)
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          module
                              + " is in jarvis-bom but not a dependency of jarvis-api-check: add it"
                              + " there (with the exclusion of all its dependencies)"));
      Path snapshot = snapshotFile(root, module);
      List<String> actual = PublicApi.of(classes);
      if (accept) {
        write(snapshot, actual);
        continue;
      }
      compare(module, snapshot, actual).ifPresent(failures::add);
    }
    if (!failures.isEmpty()) {
      System.err.println(String.join("\n", failures));
      System.err.println(
          failures.size()
              + " published module(s) changed their public API; to accept: "
              + ACCEPT_COMMAND);
      System.exit(1);
    }
  }

  static Path snapshotFile(Path root, String module) {
    return root.resolve(module).resolve("api").resolve(module + ".api");
  }

  /** What to print when the built API differs from the snapshot; empty when it does not. */
  static Optional<String> compare(String module, Path snapshot, List<String> actual)
      throws IOException {
    List<String> expected =
        Files.exists(snapshot) ? Files.readAllLines(snapshot, StandardCharsets.UTF_8) : List.of();
    String diff =
        UnifiedDiff.between(
            "a/" + module + "/api/" + module + ".api (committed)",
            expected,
            "b/" + module + "/api/" + module + ".api (built)",
            actual);
    if (diff.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "The public API of "
            + module
            + " differs from its committed snapshot"
            + (Files.exists(snapshot) ? "" : " (there is none yet)")
            + ":\n"
            + diff
            + "If the change is intended, accept it and commit the snapshot with the change (and a"
            + " CHANGELOG entry with a migration note for anything removed or changed):\n    "
            + ACCEPT_COMMAND
            + "\n");
  }

  static List<String> publishedModules(Path root) throws IOException {
    String bom = Files.readString(root.resolve("jarvis-bom").resolve("pom.xml"));
    List<String> modules = new ArrayList<>();
    Matcher artifact = BOM_ARTIFACT.matcher(bom);
    while (artifact.find()) {
      modules.add(artifact.group(1));
    }
    modules.remove("jarvis-bom");
    return modules;
  }

  /**
   * The module's classes on the classpath: {@code <module>/target/classes} or {@code
   * <module>/target/<module>-<version>.jar} in a reactor build, {@code
   * dev/jarvis/<module>/<version>/<module>-<version>.jar} from a repository. In each the
   * grandparent directory is named for the module.
   */
  static Optional<Path> classesOf(String module, List<String> classpath) {
    for (String entry : classpath) {
      Path path = Path.of(entry).toAbsolutePath();
      String file = path.getFileName().toString();
      boolean classesDirectory = file.equals("classes");
      boolean moduleJar =
          file.startsWith(module + "-") && file.endsWith(".jar") && !file.endsWith("-tests.jar");
      Path grandparent = path.getParent() == null ? null : path.getParent().getParent();
      if ((classesDirectory || moduleJar)
          && grandparent != null
          && grandparent.getFileName() != null
          && grandparent.getFileName().toString().equals(module)) {
        return Optional.of(path);
      }
    }
    return Optional.empty();
  }

  private static void write(Path snapshot, List<String> lines) throws IOException {
    Files.createDirectories(snapshot.getParent());
    String text = lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    Files.writeString(snapshot, text, StandardCharsets.UTF_8);
    System.out.println("wrote " + snapshot);
  }
}
