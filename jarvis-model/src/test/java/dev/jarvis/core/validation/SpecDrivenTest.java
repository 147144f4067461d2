package dev.jarvis.core.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisSpec;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The validator has no copy of the spec's rules: change the spec and what it enforces changes. Each
 * test edits a copy of the spec tree and builds a validator from it.
 */
class SpecDrivenTest {

  private static PayloadValidator validatorFor(Consumer<ObjectNode> specEdit) {
    ObjectNode spec = (ObjectNode) JarvisSpec.tree();
    specEdit.accept(spec);
    return PayloadValidator.forSpec(spec);
  }

  private static ObjectNode schema(ObjectNode spec, String name) {
    return (ObjectNode) spec.path("components").path("schemas").path(name);
  }

  @Test
  void aNewForbiddenFieldIsEnforcedEvenWhereTheSchemaDeclaresIt() {
    PayloadValidator validator =
        validatorFor(
            spec ->
                ((ArrayNode) schema(spec, "Worker").get("x-jarvis-forbidden-fields"))
                    .add("display_name"));
    Expect.only(
        validator.validate("Worker", Payloads.edited("Worker", n -> n.put("display_name", "Ada"))),
        "forbidden_host_private_field",
        "/display_name");
  }

  @Test
  void theHostPrivateWordsAreTheOnesInTheSpecPattern() {
    PayloadValidator validator =
        validatorFor(
            spec -> {
              ObjectNode names =
                  (ObjectNode) schema(spec, "NamespacedExtensions").get("propertyNames");
              names.put("pattern", names.get("pattern").asText().replace("|billing|", "|invoice|"));
            });
    String invoice =
        Payloads.edited("Worker", n -> ((ObjectNode) n.get("extensions")).put("acme.invoice", 1));
    Expect.only(
        validator.validate("Worker", invoice),
        "forbidden_host_private_field",
        "/extensions/acme.invoice");
    Expect.clean(Expect.VALIDATOR.validate("Worker", invoice));
  }

  @Test
  void removingAnIfThenRuleLiftsIt() {
    PayloadValidator validator =
        validatorFor(spec -> schema(spec, "PolicyDecision").remove("allOf"));
    Expect.clean(
        validator.validate(
            "PolicyDecision", Payloads.edited("PolicyDecision", n -> n.remove("request_id"))));
  }

  @Test
  void theDuplicateRejectionIdIsTheSpecs() {
    PayloadValidator validator =
        validatorFor(
            spec ->
                ((ObjectNode)
                        schema(spec, "Contribution").path("properties").path("contributor_refs"))
                    .put("x-jarvis-duplicate-rejection-id", "invalid_contributor_refs"));
    String twice =
        Payloads.edited(
            "Contribution",
            n ->
                Payloads.array(n, "contributor_refs")
                    .add(Payloads.array(n, "contributor_refs").get(0)));
    Expect.only(
        validator.validate("Contribution", twice),
        "invalid_contributor_refs",
        "/contributor_refs/1");
  }

  @Test
  void aRequestBodyMovedToAnotherSchemaIsValidatedAgainstIt() {
    PayloadValidator validator =
        validatorFor(
            spec ->
                ((ObjectNode)
                        spec.path("components")
                            .path("requestBodies")
                            .path("WorkerBody")
                            .path("content")
                            .path("application/json")
                            .path("schema"))
                    .put("$ref", "#/components/schemas/HumanWorker"));
    assertEquals("HumanWorker", validator.requestBodySchema("registerWorker"));
    assertTrue(
        validator
            .validateRequestBody("registerWorker", Payloads.valid("HumanWorker").toString())
            .isEmpty());
  }

  @Test
  void theShippedSpecIsTheOneForSpecReads() {
    JsonNode tree = JarvisSpec.tree();
    assertEquals(
        tree.path("components").path("schemas").size(),
        PayloadValidator.forSpec().schemaNames().size());
  }
}
