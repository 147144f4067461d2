package dev.jarvis.host.jaxrs.internal;

import dev.jarvis.core.JarvisJson;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.jaxrs.JarvisHostFeature;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.IOException;

/**
 * Gives a resource method the record the request guard already read: the generated interface takes
 * the body as a model record, and the runtime would otherwise parse the bytes a second time to bind
 * it. Bound from the guard's one tree instead; a request the guard did not check (none reaches an
 * operation method) is read as usual.
 */
final class CheckedEntityInterceptor implements ReaderInterceptor {

  private static final String MODEL_PACKAGE = "dev.jarvis.model";

  @Override
  public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
    if (context.getProperty(JarvisHostFeature.CALL_PROPERTY) instanceof ProtocolCall call
        && !call.body().isMissingNode()
        && context.getType().getPackageName().equals(MODEL_PACKAGE)) {
      return JarvisJson.mapper().treeToValue(call.body(), context.getType());
    }
    return context.proceed();
  }
}
