package dev.jarvis.core.headers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.OperationClass;
import dev.jarvis.core.SpecOperationTable;
import dev.jarvis.core.SpecOperationTable.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class JarvisHeadersTest {

  private static final JsonNode COMPONENTS = SpecOperationTable.spec().path("components");

  @Test
  void requestHeaderNamesAreSpelledAsTheSpecsHeaderParameters() {
    Set<String> spec = new TreeSet<>();
    for (Map.Entry<String, JsonNode> p : COMPONENTS.path("parameters").properties()) {
      if (p.getValue().path("in").asText().equals("header")) {
        spec.add(p.getValue().path("name").asText());
      }
    }
    Set<String> ours = new TreeSet<>(JarvisHeaders.MUTATION);
    ours.addAll(JarvisHeaders.READ);
    assertEquals(spec, ours);
  }

  @Test
  void responseHeaderNamesAreSpelledAsTheSpecsResponses() {
    Set<String> spec = new TreeSet<>();
    for (Map.Entry<String, JsonNode> r : COMPONENTS.path("responses").properties()) {
      r.getValue().path("headers").properties().forEach(h -> spec.add(h.getKey()));
    }
    assertEquals(spec, new TreeSet<>(JarvisHeaders.RESPONSE));
  }

  @Test
  void eachOperationRequiresExactlyTheHeadersOfItsClassInTheSpecsOrder() {
    List<String> mismatches = new ArrayList<>();
    for (Operation op : SpecOperationTable.operations()) {
      OperationClass c = op.operationClass();
      if (!op.requiredHeaders().equals(JarvisHeaders.required(c))
          || !op.optionalHeaders().equals(JarvisHeaders.optional(c))) {
        mismatches.add(op.operationId() + " " + op.requiredHeaders() + op.optionalHeaders());
      }
    }
    assertEquals(List.of(), mismatches);
  }

  @Test
  void theMutationListIsWhatAWorkSessionMutationRequires() {
    assertEquals(
        JarvisHeaders.MUTATION, JarvisHeaders.required(OperationClass.WORKSESSION_SCOPED_MUTATION));
    assertEquals(
        JarvisHeaders.READ.subList(0, 2),
        JarvisHeaders.required(OperationClass.WORKSESSION_SCOPED_READ));
  }

  @Test
  void theActorIdRuleIsTheSpecsJarvisId() {
    JsonNode jarvisId = COMPONENTS.path("schemas").path("JarvisId");
    assertEquals(jarvisId.path("pattern").asText(), ActorId.PATTERN);
    assertEquals(jarvisId.path("maxLength").asInt(), ActorId.MAX_LENGTH);
    assertEquals(1, jarvisId.path("minLength").asInt());
  }

  @Test
  void theExtensionNamespaceRuleIsTheSpecsNamespacedExtensionPropertyName() {
    assertEquals(
        COMPONENTS
            .path("schemas")
            .path("NamespacedExtensions")
            .path("propertyNames")
            .path("pattern")
            .asText(),
        ExtensionNamespaces.PROPERTY_NAME_PATTERN);
    assertEquals(
        ExtensionNamespaces.PROPERTY_NAME_PATTERN.replaceFirst("^\\^\\(\\?!.*?\\)\\)", "^"),
        ExtensionNamespaces.PATTERN);
  }

  @Test
  void theGenesisConstantsAreTheSpecsGenesisState() {
    for (Operation op : SpecOperationTable.operations()) {
      JsonNode genesis = op.node().path("x-jarvis-genesis-state");
      if (!genesis.isMissingNode()) {
        assertEquals(
            genesis.path("expected_revision_header").asLong(), ExpectedRevision.GENESIS.value());
        assertEquals(
            genesis.path("previous_event_hash_header").asText(), PreviousEventHash.GENESIS.value());
      }
    }
  }
}
