package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jarvis.core.JarvisJson;
import jakarta.ws.rs.ext.ContextResolver;

/** Entity binding uses the strict Jarvis wire mapping, never a lenient default mapper. */
public final class JarvisJsonResolver implements ContextResolver<ObjectMapper> {

  @Override
  public ObjectMapper getContext(Class<?> type) {
    return JarvisJson.mapper();
  }
}
