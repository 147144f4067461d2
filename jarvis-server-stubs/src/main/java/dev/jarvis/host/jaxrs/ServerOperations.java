package dev.jarvis.host.jaxrs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The operations of the generated server interfaces, read by reflection.
 *
 * <p>The generator emits one interface per spec tag, named {@code <Tag>Api}; the tags come from the
 * spec itself, so a tag added to the spec is picked up without touching this class.
 */
public final class ServerOperations {

  /** Package of the generated JAX-RS interfaces. */
  public static final String GENERATED_API_PACKAGE = "dev.jarvis.server.generated.api";

  private static final List<ServerOperation> ALL = List.copyOf(read());

  private ServerOperations() {}

  /** Every operation, ordered by path then method. */
  public static List<ServerOperation> all() {
    return ALL;
  }

  private static List<ServerOperation> read() {
    List<ServerOperation> operations = new ArrayList<>();
    for (JsonNode tag : JarvisSpec.tree().path("tags")) {
      apiFor(tag.path("name").asText())
          .ifPresent(
              api -> {
                for (Method method : api.getMethods()) {
                  httpMethodOf(method)
                      .ifPresent(
                          verb ->
                              operations.add(
                                  new ServerOperation(
                                      verb, pathOf(api, method), method.getName(), api, method)));
                }
              });
    }
    operations.sort(
        Comparator.comparing(ServerOperation::path).thenComparing(ServerOperation::httpMethod));
    return operations;
  }

  private static java.util.Optional<Class<?>> apiFor(String tag) {
    try {
      return java.util.Optional.of(Class.forName(GENERATED_API_PACKAGE + "." + tag + "Api"));
    } catch (ClassNotFoundException e) {
      // A tag with no operations (the spec's Conformance tag) has no interface.
      return java.util.Optional.empty();
    }
  }

  private static java.util.Optional<String> httpMethodOf(Method method) {
    for (Annotation annotation : method.getAnnotations()) {
      HttpMethod verb = annotation.annotationType().getAnnotation(HttpMethod.class);
      if (verb != null) {
        return java.util.Optional.of(verb.value());
      }
    }
    return java.util.Optional.empty();
  }

  private static String pathOf(Class<?> api, Method method) {
    Path classPath = api.getAnnotation(Path.class);
    Path methodPath = method.getAnnotation(Path.class);
    String prefix = classPath == null ? "" : classPath.value();
    return prefix + (methodPath == null ? "" : methodPath.value());
  }
}
