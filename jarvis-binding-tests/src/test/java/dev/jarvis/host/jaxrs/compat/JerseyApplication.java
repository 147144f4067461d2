package dev.jarvis.host.jaxrs.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.host.jaxrs.JarvisHostFeature;
import dev.jarvis.host.jaxrs.resources.ProtocolResource;
import dev.jarvis.samples.SampleRecords;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpServerFactory;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * One Jersey application on Grizzly, as a service team has it: its own endpoints (one
 * bean-validated, one unluckily named like a protocol operation), Jackson, Bean Validation, and
 * Jarvis registered beside them with the shared-application binding, under a context path. Jarvis
 * serves the resources given (the ready-made ones unless told otherwise) and holds the Policies
 * given (the sample one unless told otherwise), the first assigned to every human Worker, as a
 * conformance run needs.
 */
final class JerseyApplication implements AutoCloseable {

  static final String TOKEN = "binding-test-token";
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);

  /** The application's own endpoints. */
  @Path("/api")
  public static class OwnResource {

    @GET
    @Path("/hr/workers/{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> registerWorker(@PathParam("id") String id) {
      return Map.of("worker", id);
    }

    @GET
    @Path("/orders/{id}")
    public String order(@PathParam("id") String id) {
      throw new NotFoundException("no order " + id);
    }

    @GET
    @Path("/broken")
    public String broken() {
      throw new IllegalArgumentException("the application's own failure");
    }

    @POST
    @Path("/orders")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Order create(@Valid @NotNull Order order) {
      return order;
    }
  }

  /** An application type, with its own Bean Validation constraint. */
  public static class Order {
    @NotNull
    @Size(max = 8)
    public String id;
  }

  private final HttpServer server;
  private final URI base;

  /** The application with Jarvis, under {@code contextPath} ("" or "/jarvis"), on a free port. */
  JerseyApplication(String contextPath) {
    this(contextPath, true);
  }

  /** The application with or without Jarvis, to compare its own answers. */
  JerseyApplication(String contextPath, boolean withJarvis) {
    this(
        contextPath,
        withJarvis ? List.copyOf(ProtocolResource.all()) : List.of(),
        List.of(SampleRecords.policy()));
  }

  /**
   * The application with Jarvis serving through {@code resources} (none: without Jarvis), holding
   * {@code policies}, the first assigned to every human Worker.
   */
  JerseyApplication(String contextPath, List<Class<?>> resources, List<JsonNode> policies) {
    AtomicInteger traces = new AtomicInteger();
    ProtocolHost host =
        new ProtocolHost(
            HostConfig.builder(HostAuth.bearer(TOKEN))
                .clock(CLOCK)
                .traceIds(() -> "trace:binding-" + traces.incrementAndGet())
                .governance(
                    WorkSessionGovernance.NONE.assignPolicyToEveryHuman(
                        policies.get(0).path("id").asText()))
                .build());
    policies.forEach(host::seedPolicy);
    ResourceConfig app =
        new ResourceConfig().register(JacksonFeature.class).register(OwnResource.class);
    if (!resources.isEmpty()) {
      app.register(new JarvisHostFeature(host));
      resources.forEach(app::register);
    }
    server =
        GrizzlyHttpServerFactory.createHttpServer(
            URI.create("http://127.0.0.1:0" + contextPath + "/"), app, true);
    int port = server.getListeners().iterator().next().getPort();
    base = URI.create("http://127.0.0.1:" + port + contextPath + "/");
  }

  /** The application's base, ending in a slash. */
  URI base() {
    return base;
  }

  @Override
  public void close() {
    server.shutdownNow();
  }
}
