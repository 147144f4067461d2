package dev.jarvis.host.reference;

import com.sun.net.httpserver.HttpServer;
import dev.jarvis.host.JarvisHostFeature;
import dev.jarvis.host.ProtocolHost;
import jakarta.ws.rs.Path;
import java.net.URI;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.jdkhttp.JdkHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.server.model.Resource;

/**
 * The reference host: the host kit on Jersey and the JDK HTTP server, bound to loopback. Start it
 * with {@link #start(ReferenceHostConfig)}, stop it with {@link #close()}.
 */
public final class ReferenceHost implements AutoCloseable {

  private final HttpServer server;
  private final URI baseUri;
  private final ProtocolHost host;

  private ReferenceHost(HttpServer server, URI baseUri, ProtocolHost host) {
    this.server = server;
    this.baseUri = baseUri;
    this.host = host;
  }

  /** Starts a host; it serves until closed. */
  public static ReferenceHost start(ReferenceHostConfig config) {
    // Without it the JDK server waits ~40 ms per response for Nagle and delayed ACKs.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    ProtocolHost host = new ProtocolHost(config.hostConfig());
    config.policies().forEach(host::seedPolicy);
    ResourceConfig resources =
        new ResourceConfig()
            .register(JacksonFeature.withoutExceptionMappers())
            .register(new JarvisHostFeature(host))
            .register(new RequestLog())
            .property(ServerProperties.WADL_FEATURE_DISABLE, true)
            .property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, true);
    for (Class<? extends ProtocolResource> resource : ProtocolResource.ALL) {
      // The generated interfaces carry the class-level paths; Java does not inherit those.
      Class<?> api = resource.getInterfaces()[0];
      resources.registerResources(
          Resource.builder(resource).path(api.getAnnotation(Path.class).value()).build());
    }
    URI requested =
        URI.create(
            "http://"
                + ReferenceHostConfig.loopback().getHostAddress()
                + ":"
                + config.port()
                + "/");
    HttpServer server = JdkHttpServerFactory.createHttpServer(requested, resources, true);
    URI bound =
        URI.create(
            "http://"
                + ReferenceHostConfig.loopback().getHostAddress()
                + ":"
                + server.getAddress().getPort()
                + "/");
    return new ReferenceHost(server, bound, host);
  }

  /** Where it serves, e.g. {@code http://127.0.0.1:41234/}. */
  public URI baseUri() {
    return baseUri;
  }

  /** The host kit instance it runs. */
  public ProtocolHost host() {
    return host;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
