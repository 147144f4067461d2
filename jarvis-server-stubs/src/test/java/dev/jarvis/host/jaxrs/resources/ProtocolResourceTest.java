package dev.jarvis.host.jaxrs.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.host.jaxrs.RequestInboxApi;
import dev.jarvis.host.jaxrs.ServerOperations;
import jakarta.ws.rs.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ProtocolResourceTest {

  static java.util.List<Class<? extends ProtocolResource>> resources() {
    return ProtocolResource.all();
  }

  @ParameterizedTest
  @MethodSource("resources")
  void eachReadyMadeResourceRepeatsItsInterfacesPath(Class<? extends ProtocolResource> resource) {
    Class<?> api = resource.getInterfaces()[0];
    assertEquals(api.getAnnotation(Path.class).value(), resource.getAnnotation(Path.class).value());
  }

  @org.junit.jupiter.api.Test
  void theReadyMadeResourcesImplementEveryGeneratedInterfaceAndTheInboxRead() {
    Set<Class<?>> implemented =
        ProtocolResource.all().stream()
            .<Class<?>>map(r -> r.getInterfaces()[0])
            .collect(Collectors.toSet());
    Set<Class<?>> expected =
        ServerOperations.all().stream()
            .map(o -> o.api())
            .collect(Collectors.toCollection(HashSet::new));
    expected.add(RequestInboxApi.class);
    assertEquals(expected, implemented);
  }
}
