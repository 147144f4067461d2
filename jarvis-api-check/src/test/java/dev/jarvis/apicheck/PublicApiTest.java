package dev.jarvis.apicheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.apicheck.fixture.Sample;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ModuleVisitor;
import org.objectweb.asm.Opcodes;

class PublicApiTest {

  @Test
  void writesEveryAccessibleDeclarationWithGenericsModifiersThrowsDeprecationAndSealing()
      throws Exception {
    assertEquals(
        List.of(
            "public class dev.jarvis.apicheck.fixture.Sample<T extends java.lang.Comparable<T>>"
                + " implements java.util.function.Supplier<java.util.List<T>>",
            "  @Deprecated(forRemoval=true) public void old()",
            "  protected Sample(java.lang.String) throws java.io.IOException",
            "  protected java.lang.String name",
            "  public <R> java.util.Optional<R> map(java.util.function.Function<? super T, ? extends"
                + " R>)",
            "  public Sample()",
            "  public int[][] grid(java.util.List<? extends java.lang.Number>[])",
            "  public java.util.List<T> get()",
            "  public static final int LIMIT",
            "  public static java.lang.String join(java.lang.String...)",
            "protected static interface dev.jarvis.apicheck.fixture.Sample.Hook",
            "  public default void twice()",
            "  public static dev.jarvis.apicheck.fixture.Sample.Hook none()",
            "  public void call() throws java.lang.Exception",
            "public static enum dev.jarvis.apicheck.fixture.Sample.Mode",
            "  public static dev.jarvis.apicheck.fixture.Sample.Mode valueOf(java.lang.String)",
            "  public static dev.jarvis.apicheck.fixture.Sample.Mode[] values()",
            "  public static final dev.jarvis.apicheck.fixture.Sample.Mode OFF",
            "  public static final dev.jarvis.apicheck.fixture.Sample.Mode ON",
            "public static final class dev.jarvis.apicheck.fixture.Sample.Name implements"
                + " java.lang.Comparable<dev.jarvis.apicheck.fixture.Sample.Name>",
            "  public Name()",
            "  public int compareTo(dev.jarvis.apicheck.fixture.Sample.Name)",
            "public sealed interface dev.jarvis.apicheck.fixture.Shape permits"
                + " dev.jarvis.apicheck.fixture.Shape.Circle, dev.jarvis.apicheck.fixture.Shape.Square",
            "public static final class dev.jarvis.apicheck.fixture.Shape.Circle extends"
                + " java.lang.Record implements dev.jarvis.apicheck.fixture.Shape",
            "  public Circle(double)",
            "  public double radius()",
            "  public final boolean equals(java.lang.Object)",
            "  public final int hashCode()",
            "  public final java.lang.String toString()",
            "public static final class dev.jarvis.apicheck.fixture.Shape.Square extends"
                + " java.lang.Record implements dev.jarvis.apicheck.fixture.Shape",
            "  public Square(double)",
            "  public double side()",
            "  public final boolean equals(java.lang.Object)",
            "  public final int hashCode()",
            "  public final java.lang.String toString()"),
        PublicApi.of(fixtureClasses()));
  }

  @Test
  void aModuleDescriptorDecidesWhichPackagesAreApi(@TempDir Path classes) throws Exception {
    copyFixtures(classes);
    ClassWriter descriptor = new ClassWriter(0);
    descriptor.visit(Opcodes.V17, Opcodes.ACC_MODULE, "module-info", null, null, null);
    ModuleVisitor module = descriptor.visitModule("fixture", 0, null);
    module.visitExport("dev/jarvis/apicheck/fixture/internal", 0);
    module.visitExport("dev/jarvis/apicheck/fixture", 0, "some.friend");
    module.visitEnd();
    descriptor.visitEnd();
    Files.write(classes.resolve("module-info.class"), descriptor.toByteArray());

    assertEquals(
        List.of(
            "public final class dev.jarvis.apicheck.fixture.internal.Secret",
            "  public Secret()",
            "  public void reveal()"),
        PublicApi.of(classes));
  }

  @Test
  void readsAJarAsItReadsAClassDirectory(@TempDir Path temp) throws Exception {
    Path classes = temp.resolve("classes");
    copyFixtures(classes);
    Path jar = temp.resolve("fixture.jar");
    try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        out.putNextEntry(new java.util.jar.JarEntry(classes.relativize(file).toString()));
        out.write(Files.readAllBytes(file));
        out.closeEntry();
      }
    }

    assertEquals(PublicApi.of(classes), PublicApi.of(jar));
  }

  private static Path fixtureClasses() throws URISyntaxException {
    return Path.of(Sample.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** Only the fixture packages, without this module's own test classes. */
  private static void copyFixtures(Path into) throws IOException, URISyntaxException {
    Path root = fixtureClasses();
    Path fixtures = root.resolve("dev/jarvis/apicheck/fixture");
    try (Stream<Path> files = Files.walk(fixtures)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        Path target = into.resolve(root.relativize(file).toString());
        Files.createDirectories(target.getParent());
        Files.copy(file, target);
      }
    }
  }
}
