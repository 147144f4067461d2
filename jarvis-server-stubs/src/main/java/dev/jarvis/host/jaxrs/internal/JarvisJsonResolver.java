package dev.jarvis.host.jaxrs.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jarvis.core.JarvisJson;
import jakarta.ws.rs.ext.ContextResolver;

/**
 * Protocol records bind with the strict Jarvis wire mapping, never a lenient default mapper; every
 * other type is left to the application's own mapper (a null answer lets the next resolver or the
 * provider's default decide).
 */
public final class JarvisJsonResolver implements ContextResolver<ObjectMapper> {

  @Override
  public ObjectMapper getContext(Class<?> type) {
    return isProtocolType(type) ? JarvisJson.mapper() : null;
  }

  private static boolean isProtocolType(Class<?> type) {
    return type.getPackageName().equals(MODEL_PACKAGE);
  }

  private static final String MODEL_PACKAGE = "dev.jarvis.model";
}
