package dev.jarvis.host.reference;

import com.sun.net.httpserver.HttpServer;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.jaxrs.JarvisHostFeature;
import dev.jarvis.host.jaxrs.resources.ProtocolResource;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.jdkhttp.JdkHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/**
 * The host kit's JAX-RS binding on Jersey and the JDK HTTP server: the way a host team plugs the
 * kit into its own JAX-RS application, served as the reference host's {@link HttpRuntime#JERSEY}.
 */
final class JerseyServer implements RunningServer {

  private final HttpServer server;
  private final InFlightRequests inFlight;

  private JerseyServer(HttpServer server, InFlightRequests inFlight) {
    this.server = server;
    this.inFlight = inFlight;
  }

  static JerseyServer start(
      ProtocolHost host, InetAddress address, int port, BooleanSupplier storeReady) {
    // Without it the JDK server waits ~40 ms per response for Nagle and delayed ACKs.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    InFlightRequests inFlight = new InFlightRequests(host::shuttingDown);
    ResourceConfig resources =
        new ResourceConfig()
            .register(inFlight)
            .register(JacksonFeature.withoutExceptionMappers())
            .register(JarvisHostFeature.owningTheApplication(host))
            .register(new RequestLog())
            .property(ServerProperties.WADL_FEATURE_DISABLE, true)
            .property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, true);
    ProtocolResource.all().forEach(resources::register);
    URI requested = URI.create("http://" + address.getHostAddress() + ":" + port + "/");
    HttpServer server = JdkHttpServerFactory.createHttpServer(requested, resources, false);
    new HealthEndpoints(storeReady, inFlight::draining).registerOn(server);
    // Without an executor the JDK server answers every exchange on its one dispatcher thread, so an
    // event stream or a long poll would hold every other request; each exchange gets a thread.
    server.setExecutor(
        java.util.concurrent.Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "jarvis-jersey-exchange");
              t.setDaemon(true);
              return t;
            }));
    server.start();
    return new JerseyServer(server, inFlight);
  }

  @Override
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void stop(Duration grace, Runnable pastGrace) {
    boolean busy = inFlight.busy();
    try {
      if (!inFlight.drain(grace)) {
        pastGrace.run();
        inFlight.drain(UndertowServer.ANSWERS_AFTER_ABORT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      // A request counts as done when its response filter ran, before its body reached the
      // socket; when some were running, the JDK server gets a second to flush them (stop waits at
      // most that long). An idle host stops at once.
      server.stop(busy ? 1 : 0);
    }
  }
}
