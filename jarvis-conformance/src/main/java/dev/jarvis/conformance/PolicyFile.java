package dev.jarvis.conformance;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.Policy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A Policy record read from a JSON file and held to the spec, as a host holds it. */
final class PolicyFile {

  private PolicyFile() {}

  /**
   * The Policy in {@code file}.
   *
   * @throws IllegalArgumentException when the file cannot be read or is not a Policy the spec
   *     accepts, saying which
   */
  static Policy read(Path file) {
    JsonNode record;
    try {
      record = JarvisJson.mapper().readTree(Files.readAllBytes(file));
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "--policy-file " + file + ": not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read --policy-file " + file);
    }
    List<ProtocolViolation> violations = PayloadValidator.forSpec().validate("Policy", record);
    if (!violations.isEmpty()) {
      ProtocolViolation first = violations.get(0);
      throw new IllegalArgumentException(
          "--policy-file "
              + file
              + ": not a valid Policy: "
              + first.errorId().getValue()
              + " at "
              + first.field()
              + " ("
              + first.reason()
              + ")");
    }
    try {
      return JarvisJson.mapper().treeToValue(record, Policy.class);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "--policy-file " + file + ": a Policy the suite cannot read: " + e.getOriginalMessage());
    }
  }
}
