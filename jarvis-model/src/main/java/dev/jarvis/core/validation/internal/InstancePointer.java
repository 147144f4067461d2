package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonPointer;
import com.networknt.schema.path.NodePath;

/** JSON Pointers (RFC 6901) into the validated payload, from the validator's instance paths. */
final class InstancePointer {

  private InstancePointer() {}

  static JsonPointer of(NodePath path) {
    return of(path, path.getNameCount());
  }

  /** The pointer made of the first {@code depth} segments of the path. */
  static JsonPointer of(NodePath path, int depth) {
    JsonPointer pointer = JsonPointer.empty();
    for (int i = 0; i < Math.min(depth, path.getNameCount()); i++) {
      Object element = path.getElement(i);
      pointer =
          element instanceof Integer index
              ? pointer.appendIndex(index)
              : pointer.appendProperty(String.valueOf(element));
    }
    return pointer;
  }
}
