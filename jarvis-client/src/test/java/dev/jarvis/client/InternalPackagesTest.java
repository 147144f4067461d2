package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * User code on the module path reaches the client's and the core's API, never their {@code
 * internal} packages: a consumer module is compiled with javac against the very module path these
 * tests run on.
 */
class InternalPackagesTest {

  /** One internal type of each module on this module path, as a user would try to import it. */
  private static final Map<String, String> INTERNAL_TYPES =
      Map.of(
          "UsesClientInternals", "dev.jarvis.client.internal.BuiltInPipeline",
          "UsesValidationInternals", "dev.jarvis.core.validation.internal.CompiledSpec",
          "UsesCanonicalInternals", "dev.jarvis.core.canonical.internal.EcmaNumber");

  @Test
  void theTestsRunOnTheModulePath() {
    assertTrue(JarvisClient.class.getModule().isNamed(), "dev.jarvis.client is a named module");
    assertEquals("dev.jarvis.client", JarvisClient.class.getModule().getName());
    assertTrue(dev.jarvis.core.JarvisJson.class.getModule().isNamed(), "dev.jarvis.model too");
  }

  @Test
  void noInternalPackageOfAJarvisModuleIsExportedOrOpenToUsers() {
    List<String> internalPackages = new ArrayList<>();
    for (Module module : ModuleLayer.boot().modules()) {
      if (!module.getName().startsWith("dev.jarvis.")) {
        continue;
      }
      for (String pkg : module.getPackages()) {
        if (pkg.endsWith(".internal") || pkg.contains(".internal.")) {
          internalPackages.add(pkg);
          assertFalse(module.isExported(pkg), pkg + " is exported to everyone");
          assertFalse(module.isOpen(pkg), pkg + " is open to everyone");
          assertUnqualified(module.getDescriptor(), pkg);
        }
      }
    }
    // Positive control: the check saw the internal packages it guards.
    assertTrue(
        internalPackages.containsAll(
            List.of(
                "dev.jarvis.client.internal",
                "dev.jarvis.core.validation.internal",
                "dev.jarvis.core.canonical.internal")),
        internalPackages::toString);
  }

  private static void assertUnqualified(ModuleDescriptor descriptor, String pkg) {
    for (ModuleDescriptor.Exports export : descriptor.exports()) {
      assertFalse(
          export.source().equals(pkg) && !export.isQualified(),
          descriptor.name() + " exports " + pkg);
    }
  }

  @Test
  void aConsumerModuleCompilesAgainstTheExportedApi(@TempDir Path dir) throws Exception {
    write(
        dir,
        "UsesApi",
        "import dev.jarvis.client.JarvisClient;\n"
            + "import dev.jarvis.core.JarvisJson;\n"
            + "public class UsesApi { Object[] api = {JarvisClient.class, JarvisJson.mapper()}; }\n");

    Compilation compiled = javac(dir);

    assertEquals(0, compiled.exit(), compiled.output());
  }

  @Test
  void aConsumerModuleCannotImportAnInternalPackage(@TempDir Path dir) throws Exception {
    for (Map.Entry<String, String> type : INTERNAL_TYPES.entrySet()) {
      write(
          dir,
          type.getKey(),
          "public class " + type.getKey() + " { " + type.getValue() + " reached; }\n");
    }

    Compilation compiled = javac(dir);

    assertEquals(1, compiled.exit(), compiled.output());
    for (Map.Entry<String, String> type : INTERNAL_TYPES.entrySet()) {
      String pkg = type.getValue().substring(0, type.getValue().lastIndexOf('.'));
      assertTrue(
          compiled.output().contains(type.getKey() + ".java")
              && compiled.output().contains("package " + pkg + " is not visible"),
          () -> pkg + " should be refused:\n" + compiled.output());
    }
  }

  private record Compilation(int exit, String output) {}

  private static void write(Path dir, String className, String body) throws IOException {
    Path source = dir.resolve("src/consumer/" + className + ".java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, "package consumer;\n" + body, StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("src/module-info.java"),
        "module consumer { requires dev.jarvis.client; }\n",
        StandardCharsets.UTF_8);
  }

  /** javac in a process: the test module need not read java.compiler. */
  private static Compilation javac(Path dir) throws IOException, InterruptedException {
    String modulePath = System.getProperty("jdk.module.path");
    assertTrue(modulePath != null && !modulePath.isEmpty(), "run on the module path");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "javac").toString());
    command.addAll(List.of("--module-path", modulePath, "-d", dir.resolve("out").toString()));
    try (var sources = Files.walk(dir.resolve("src"))) {
      sources.filter(p -> p.toString().endsWith(".java")).forEach(p -> command.add(p.toString()));
    }
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(5, TimeUnit.MINUTES), "javac finished");
    return new Compilation(process.exitValue(), output);
  }
}
