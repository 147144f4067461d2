package dev.jarvis.core.validation;

import static dev.jarvis.core.validation.Expect.VALIDATOR;
import static dev.jarvis.core.validation.Payloads.array;
import static dev.jarvis.core.validation.Payloads.object;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rule 3: a field the schema's {@code x-jarvis-forbidden-fields} lists is reported once, as {@code
 * forbidden_host_private_field}, not also as an unknown field.
 */
class HostPrivateFieldsTest {

  static Stream<Arguments> refused() {
    return Stream.of(
        refused("a password on a Worker", "Worker", n -> n.put("password", "hunter2"), "/password"),
        refused(
            "a database primary key on a WorkSession",
            "WorkSession",
            n -> n.put("database_primary_key", 42),
            "/database_primary_key"),
        refused(
            "an unbounded approval inside a Review's ApprovalScope",
            "Review",
            n -> object(n, "approval_scope").put("unbounded_approval", true),
            "/approval_scope/unbounded_approval"),
        refused(
            "a credential on a contributor reference",
            "Contribution",
            n -> ((ObjectNode) array(n, "contributor_refs").get(0)).put("credential", "x"),
            "/contributor_refs/0/credential"),
        refused(
            "a UI state on an EvidenceManifest's export profile",
            "EvidenceManifest",
            n -> object(n, "export_profile").put("ui_state", "{}"),
            "/export_profile/ui_state"),
        refused(
            "a runtime lock id in a Takeover's scope",
            "Takeover",
            n -> object(n, "affected_scope").put("runtime_lock_id", "lock-7"),
            "/affected_scope/runtime_lock_id"),
        refused(
            "an unlisted unknown field whose name holds a host-private word",
            "WorkSession",
            n -> n.put("oauth_client", "x"),
            "/oauth_client"));
  }

  private static Arguments refused(
      String what, String schema, Consumer<ObjectNode> edit, String pointer) {
    return Arguments.of(what, schema, edit, pointer);
  }

  @ParameterizedTest(name = "{1} with {0} gives one forbidden_host_private_field at {3}")
  @MethodSource("refused")
  void reportedOnceAsForbiddenHostPrivateField(
      String what, String schema, Consumer<ObjectNode> edit, String pointer) {
    Expect.only(
        VALIDATOR.validate(schema, Payloads.edited(schema, edit)),
        "forbidden_host_private_field",
        pointer);
  }

  @ParameterizedTest(name = "{0} without host-private fields is accepted")
  @MethodSource("dev.jarvis.core.validation.HostPrivateFieldsTest#schemas")
  void recordWithoutThemIsAccepted(String schema) {
    Expect.clean(VALIDATOR.validate(schema, Payloads.valid(schema).toString()));
  }

  static Stream<String> schemas() {
    return refused().map(a -> (String) a.get()[1]).distinct();
  }
}
