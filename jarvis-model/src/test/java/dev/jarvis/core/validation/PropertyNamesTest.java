package dev.jarvis.core.validation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Rule 2: names inside extensions, HumanWorker preferences and portable values. A host-private word
 * wins; then, for extensions, a core field of the enclosing record; then a bad namespace.
 */
class PropertyNamesTest extends PayloadRuleTable {

  static Stream<Arguments> refused() {
    return Stream.of(
        refused(
            "an extension named with a host-private word",
            "Worker",
            n -> ext(n).put("acme.password", "x"),
            "forbidden_host_private_field",
            "/extensions/acme.password"),
        refused(
            "an extension named with a host-private word in capitals",
            "Worker",
            n -> ext(n).put("acme.API_KEY", "x"),
            "forbidden_host_private_field",
            "/extensions/acme.API_KEY"),
        refused(
            "an extension without a namespace",
            "Worker",
            n -> ext(n).put("acme", "x"),
            "invalid_extension_namespace",
            "/extensions/acme"),
        refused(
            "an extension with an upper-case namespace",
            "Policy",
            n -> n.putObject("extensions").put("Acme.hint", "x"),
            "invalid_extension_namespace",
            "/extensions/Acme.hint"),
        refused(
            "an extension that overrides the record's id",
            "Worker",
            n -> ext(n).put("id", "other"),
            "extension_core_field_override",
            "/extensions/id"),
        refused(
            "an extension that overrides an AgentWorker's role",
            "AgentWorker",
            n -> n.putObject("extensions").put("role", "admin"),
            "extension_core_field_override",
            "/extensions/role"),
        refused(
            "a host-private key inside an extension value",
            "Worker",
            n -> ((ObjectNode) ext(n).get("acme.review-hint")).put("api_key", "x"),
            "forbidden_host_private_field",
            "/extensions/acme.review-hint/api_key"),
        refused(
            "a host-private preference",
            "HumanWorker",
            n -> pref(n).put("session_cookie", "x"),
            "forbidden_host_private_field",
            "/preferences/session_cookie"),
        refused(
            "a preference name in capitals",
            "HumanWorker",
            n -> pref(n).put("Theme", "dark"),
            "unknown_state",
            "/preferences/Theme"),
        refused(
            "a preference name with a slash, escaped in the pointer",
            "HumanWorker",
            n -> pref(n).put("a/b", 1),
            "unknown_state",
            "/preferences/a~1b"),
        refused(
            "a host-private key in a nested preference",
            "HumanWorker",
            n -> ((ObjectNode) pref(n).get("units")).put("ui_state", "x"),
            "forbidden_host_private_field",
            "/preferences/units/ui_state"),
        refused(
            "a host-private key in a LearningRecord's proposed change",
            "LearningRecord",
            n -> ((ObjectNode) n.get("proposed_change")).put("billing_plan", "pro"),
            "forbidden_host_private_field",
            "/proposed_change/billing_plan"),
        refused(
            "a host-private key deep in a MemoryProposal's content",
            "MemoryProposal",
            n ->
                ((ObjectNode) n.get("content"))
                    .putArray("notes")
                    .addObject()
                    .put("raw_prompt_text", "..."),
            "forbidden_host_private_field",
            "/content/notes/0/raw_prompt_text"));
  }

  static Stream<Arguments> accepted() {
    return Stream.of(
        accepted(
            "a namespaced extension holding any portable value",
            "Worker",
            n ->
                ext(n)
                    .set(
                        "acme.flags",
                        JarvisJson.mapper().createArrayNode().add(1).add("a").add(true).addNull())),
        accepted(
            "a multi-part namespace",
            "Policy",
            n -> n.putObject("extensions").put("org.acme.review_hint-2", "x")),
        accepted(
            "an extension whose last part reads like a core field",
            "Worker",
            n -> ext(n).put("acme.id", "x")),
        accepted(
            "portable preference names",
            "HumanWorker",
            n -> pref(n).put("locale:fr.ca", "x").put("0-first", 1)),
        accepted(
            "a MemoryProposal whose content is a plain string",
            "MemoryProposal",
            n -> n.put("content", "Prefer primary sources.")),
        accepted(
            "a LearningRecord whose proposed change is null",
            "LearningRecord",
            n -> n.putNull("proposed_change")));
  }

  private static ObjectNode ext(ObjectNode n) {
    return (ObjectNode) n.get("extensions");
  }

  private static ObjectNode pref(ObjectNode n) {
    return (ObjectNode) n.get("preferences");
  }
}
