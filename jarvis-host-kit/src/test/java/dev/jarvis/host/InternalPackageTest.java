package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The host kit's rules ({@code dev.jarvis.host.internal}) are out of users' reach on the module
 * path: exported only to the Spring Boot starter, which reads {@code TraceParent}, and opened to no
 * one.
 */
class InternalPackageTest {

  private final Module host = ProtocolHost.class.getModule();

  @Test
  void theTestsRunOnTheModulePath() {
    assertTrue(host.isNamed());
    assertEquals("dev.jarvis.host", host.getName());
  }

  @Test
  void theInternalPackageIsNeitherExportedNorOpenToUsers() {
    assertTrue(host.getPackages().contains("dev.jarvis.host.internal"));
    assertFalse(host.isExported("dev.jarvis.host.internal"));
    assertFalse(host.isOpen("dev.jarvis.host.internal"));
    // Positive control: the API package is.
    assertTrue(host.isExported("dev.jarvis.host"));
  }

  @Test
  void theInternalPackageIsExportedToNoModule() {
    Set<String> targets =
        host.getDescriptor().exports().stream()
            .filter(export -> export.source().equals("dev.jarvis.host.internal"))
            .flatMap(export -> export.targets().stream())
            .collect(Collectors.toSet());
    assertEquals(Set.of(), targets);
    assertTrue(
        host.getDescriptor().exports().stream()
            .noneMatch(export -> export.source().equals("dev.jarvis.host.internal")));
    assertTrue(
        host.getDescriptor().opens().stream()
            .map(ModuleDescriptor.Opens::source)
            .noneMatch(pkg -> pkg.startsWith("dev.jarvis.host")));
  }
}
