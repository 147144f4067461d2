package dev.jarvis.examples.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.jaxrs.EventLogApi;
import dev.jarvis.host.jaxrs.JarvisHostFeature;
import dev.jarvis.model.Actor;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import dev.jarvis.server.generated.api.WorkSessionsApi;
import dev.jarvis.server.generated.api.WorkersApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.glassfish.jersey.jdkhttp.JdkHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * A host team's smallest Jarvis host: two generated interfaces (Workers and WorkSessions) on
 * Jersey, with the host kit doing the protocol. Each method hands the request to {@link
 * JarvisHostFeature#respond}: the kit has already checked HostAuth, headers, the raw body and the
 * Actor, and answers with the record, a replay or a {@code ProtocolError}. Operations this host
 * does not implement answer 404 with a {@code ProtocolError}.
 */
public final class MinimalHost {

  private MinimalHost() {}

  /** Starts the host on a free loopback port; stop it with {@code server.stop(0)}. */
  public static HttpServer start(String bearerToken, JsonNode policy) {
    // The kit: HostAuth, in-memory storage, system clock; the Policy its sessions run under.
    ProtocolHost host = new ProtocolHost(HostConfig.builder(HostAuth.bearer(bearerToken)).build());
    host.seedPolicy(policy);

    ResourceConfig app =
        new ResourceConfig()
            .register(JarvisHostFeature.owningTheApplication(host))
            .register(WorkersResource.class)
            .register(WorkSessionsResource.class);
    System.setProperty("sun.net.httpserver.nodelay", "true");
    return JdkHttpServerFactory.createHttpServer(URI.create("http://127.0.0.1:0/"), app, true);
  }

  /**
   * Workers and Actors. The typed parameters are bound but not needed: the kit has the raw call.
   */
  @Path("") // JAX-RS does not inherit the interface's class-level @Path.
  public static final class WorkersResource implements WorkersApi {
    @Context private ContainerRequestContext request;

    @Override
    public Response registerActor(
        String actorId, String version, String actor, String key, String timestamp, Actor body) {
      return JarvisHostFeature.respond(request);
    }

    @Override
    public Response registerWorker(
        String workerId, String version, String actor, String key, String timestamp, Worker body) {
      return JarvisHostFeature.respond(request);
    }
  }

  /** WorkSessions and their events, read back too (the kit's {@code event-log} capability). */
  @Path("")
  public static final class WorkSessionsResource implements WorkSessionsApi, EventLogApi {
    @Context private ContainerRequestContext request;

    @Override
    public Response listJarvisEvents(
        String workSessionId,
        String after,
        String limit,
        String version,
        String actor,
        String requiredCapabilities,
        String extensions) {
      return JarvisHostFeature.respond(request);
    }

    @Override
    public Response appendJarvisEvent(
        String workSessionId,
        String version,
        String actor,
        String key,
        String timestamp,
        Long revision,
        String previousHash,
        JarvisEvent body) {
      return JarvisHostFeature.respond(request);
    }

    @Override
    public Response createWorkSession(
        String version,
        String actor,
        String key,
        String timestamp,
        Long revision,
        String previousHash,
        WorkSession body) {
      return JarvisHostFeature.respond(request);
    }

    @Override
    public Response getWorkSession(
        String workSessionId,
        String version,
        String actor,
        String requiredCapabilities,
        String extensions) {
      return JarvisHostFeature.respond(request);
    }
  }
}
