package dev.jarvis.client.internal;

import dev.jarvis.client.generated.invoker.ApiException;
import dev.jarvis.client.generated.invoker.ApiResponse;

/** Calls one generated API method with the call's headers and final body. */
@FunctionalInterface
public interface Invoker<T> {
  ApiResponse<T> invoke(GeneratedApis apis, CallHeaders headers, Object body) throws ApiException;
}
