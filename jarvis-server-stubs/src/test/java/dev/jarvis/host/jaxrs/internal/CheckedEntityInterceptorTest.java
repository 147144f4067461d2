package dev.jarvis.host.jaxrs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.exchange.ProtocolExchange;
import dev.jarvis.core.exchange.RequestBody;
import dev.jarvis.core.headers.ActorId;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.jaxrs.JarvisHostFeature;
import dev.jarvis.model.Worker;
import dev.jarvis.samples.SampleRecords;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The JAX-RS binding binds a resource's record from the guard's tree: the bytes are read once. */
class CheckedEntityInterceptorTest {

  private final AtomicInteger proceeded = new AtomicInteger();

  @Test
  void aCheckedRequestsRecordIsBoundFromTheGuardsTreeWithoutReadingTheBytesAgain()
      throws Exception {
    JsonNode tree = SampleRecords.worker("worker-1", "human");
    ProtocolCall call = call(tree);

    Object entity = new CheckedEntityInterceptor().aroundReadFrom(context(call, Worker.class));

    assertEquals(0, proceeded.get());
    assertEquals(tree, JarvisJson.mapper().valueToTree(entity));
  }

  @Test
  void aRequestTheGuardDidNotCheckIsReadAsUsual() throws Exception {
    Object entity = new CheckedEntityInterceptor().aroundReadFrom(context(null, Worker.class));

    assertEquals(1, proceeded.get());
    assertSame(PROCEEDED, entity);
  }

  private static final Object PROCEEDED = new Object();

  private static ProtocolCall call(JsonNode tree) {
    byte[] bytes = tree.toString().getBytes(StandardCharsets.UTF_8);
    return ProtocolCall.builder(
            new ProtocolExchange(
                ProtocolOperations.byId("registerWorker"),
                new ActorId("host-admin"),
                Map.of("worker_id", "worker-1"),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                RequestBody.of(bytes, tree)))
        .build();
  }

  private ReaderInterceptorContext context(ProtocolCall call, Class<?> type) {
    return (ReaderInterceptorContext)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {ReaderInterceptorContext.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getProperty" ->
                      JarvisHostFeature.CALL_PROPERTY.equals(args[0]) ? call : null;
                  case "getType" -> type;
                  case "proceed" -> {
                    proceeded.incrementAndGet();
                    yield PROCEEDED;
                  }
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
