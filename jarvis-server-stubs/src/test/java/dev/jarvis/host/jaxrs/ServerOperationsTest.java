package dev.jarvis.host.jaxrs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ServerOperationsTest {

  @Test
  void generatedInterfacesDeclareExactlyTheSpecsOperations() {
    Set<String> fromSpec = new TreeSet<>();
    for (var path : JarvisSpec.tree().path("paths").properties()) {
      for (var operation : path.getValue().properties()) {
        JsonNode op = operation.getValue();
        fromSpec.add(
            operation.getKey().toUpperCase(java.util.Locale.ROOT)
                + " "
                + path.getKey()
                + " "
                + op.path("operationId").asText());
      }
    }
    Set<String> generated =
        ServerOperations.all().stream()
            .map(o -> o.httpMethod() + " " + o.path() + " " + o.operationId())
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(15, fromSpec.size());
    assertEquals(fromSpec, generated);
  }
}
