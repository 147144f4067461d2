package dev.jarvis.host.jaxrs;

import java.lang.reflect.Method;

/**
 * One protocol operation as the generated JAX-RS interfaces declare it.
 *
 * @param httpMethod {@code GET}, {@code POST} or {@code PUT}
 * @param path the path template, e.g. {@code /work-sessions/{work_session_id}/events}
 * @param operationId the spec's operationId, which is the generated method's name
 * @param api the generated interface declaring it
 * @param method the generated interface method
 */
public record ServerOperation(
    String httpMethod, String path, String operationId, Class<?> api, Method method) {}
