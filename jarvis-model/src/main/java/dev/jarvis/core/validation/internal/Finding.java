package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonPointer;
import com.networknt.schema.Error;

/**
 * One error of the JSON Schema validator, with where it arose in the spec and in the payload.
 *
 * @param error the validator's error
 * @param trail where in the spec
 * @param at JSON Pointer of the instance the keyword was applied to
 */
record Finding(Error error, SchemaTrail trail, JsonPointer at) {

  String keyword() {
    return error.getKeyword();
  }

  /** The property an object-level keyword names (missing, unexpected, badly named…). */
  String property() {
    return error.getProperty();
  }

  /** {@link #at} extended by {@link #property()}: where the named property is or would be. */
  JsonPointer atProperty() {
    return at.appendProperty(property());
  }
}
