package dev.jarvis.core.validation.internal;

import com.networknt.schema.ExecutionContext;
import com.networknt.schema.format.Format;

/** {@link Rfc3339DateTime} as the interpretive validator's {@code date-time} format. */
final class Rfc3339DateTimeFormat implements Format {

  @Override
  public String getName() {
    return "date-time";
  }

  @Override
  public boolean matches(ExecutionContext executionContext, String value) {
    return Rfc3339DateTime.isValid(value);
  }
}
