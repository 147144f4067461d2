package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonPointer;

/**
 * One broken schema keyword, with where it arose in the spec and in the payload.
 *
 * @param error the broken keyword
 * @param trail where in the spec
 * @param at JSON Pointer of the instance the keyword was applied to
 */
record Finding(SchemaError error, SchemaTrail trail, JsonPointer at) {

  String keyword() {
    return error.keyword();
  }

  /** The property an object-level keyword names (missing, unexpected, badly named…). */
  String property() {
    return error.property();
  }

  /** {@link #at} extended by {@link #property()}: where the named property is or would be. */
  JsonPointer atProperty() {
    return at.appendProperty(property());
  }
}
