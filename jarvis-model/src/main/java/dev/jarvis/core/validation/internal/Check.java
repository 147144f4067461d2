package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A schema, or one keyword of it, compiled once into code that checks a value: no schema is read
 * while a payload is checked.
 */
interface Check {

  /**
   * Checks the value, reporting every broken keyword to the evaluation unless it is silent.
   *
   * @return whether the value satisfies this check
   */
  boolean check(JsonNode value, Evaluation run);
}
