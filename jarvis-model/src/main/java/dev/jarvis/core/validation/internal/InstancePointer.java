package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonPointer;
import java.util.List;

/** JSON Pointers (RFC 6901) into the validated payload, from instance paths. */
final class InstancePointer {

  private InstancePointer() {}

  static JsonPointer of(List<Object> path) {
    return of(path, path.size());
  }

  /** The pointer made of the first {@code depth} segments of the path. */
  static JsonPointer of(List<Object> path, int depth) {
    JsonPointer pointer = JsonPointer.empty();
    for (int i = 0; i < Math.min(depth, path.size()); i++) {
      Object element = path.get(i);
      pointer =
          element instanceof Integer index
              ? pointer.appendIndex(index)
              : pointer.appendProperty(String.valueOf(element));
    }
    return pointer;
  }
}
