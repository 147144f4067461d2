package dev.jarvis.spring.boot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.host.AgentActions;
import dev.jarvis.host.CommitHook;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.ProtocolListener;
import dev.jarvis.host.jaxrs.JarvisHostFeature;
import dev.jarvis.host.jaxrs.resources.ProtocolResource;
import dev.jarvis.store.jdbc.JdbcHostStores;
import dev.jarvis.store.jdbc.StoreSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A Jarvis host inside a Spring Boot servlet application, from {@code jarvis.host.*}: the binding
 * on Jersey in a servlet of its own at {@code jarvis.host.path}, so the service's own endpoints
 * (Spring MVC, or a Jersey application of its own) keep their errors, headers and JSON mapping.
 * Every bean backs off when the service defines its own.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ProtocolHost.class, ServletContainer.class})
@EnableConfigurationProperties(JarvisHostProperties.class)
public class JarvisHostAutoConfiguration {

  private static final System.Logger LOG = System.getLogger("dev.jarvis.spring.boot");

  /** Logged when the host runs with one token acting as anyone. */
  static final String DEMO_MODE_NOTICE =
      "Jarvis host in demo mode: jarvis.host.demo-token may act as any Actor and administer;"
          + " set jarvis.host.credentials-file to bind tokens to Actors";

  /** The host's credentials: the credentials file, or the demo token (announced). */
  @Bean
  @ConditionalOnMissingBean
  public HostAuth jarvisHostAuth(JarvisHostProperties properties) throws IOException {
    boolean hasFile =
        properties.getCredentialsFile() != null
            && !properties.getCredentialsFile().toString().isEmpty();
    boolean hasToken = properties.getDemoToken() != null && !properties.getDemoToken().isBlank();
    if (hasFile) {
      if (hasToken) {
        throw new IllegalStateException(
            "set jarvis.host.credentials-file or jarvis.host.demo-token, not both");
      }
      return Credentials.fromJson(properties.getCredentialsFile());
    }
    if (hasToken) {
      LOG.log(System.Logger.Level.WARNING, DEMO_MODE_NOTICE);
      return HostAuth.bearer(properties.getDemoToken());
    }
    throw new IllegalStateException(
        "a Jarvis host needs jarvis.host.credentials-file (or jarvis.host.demo-token for a demo)");
  }

  /** Where the host keeps its state; closed after the web server stopped. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public HostStores jarvisHostStores(
      JarvisHostProperties properties, ObjectProvider<DataSource> dataSource) {
    return switch (properties.getStore().getKind()) {
      case MEMORY -> HostStores.inMemory();
      case EMBEDDED ->
          StoreSpec.embedded(properties.getStore().getDataDir()).open(Optional.empty());
      case DATASOURCE ->
          JdbcHostStores.on(
              Optional.ofNullable(dataSource.getIfUnique())
                  .orElseThrow(
                      () ->
                          new IllegalStateException(
                              "jarvis.host.store.kind=datasource needs one DataSource bean")));
    };
  }

  /**
   * The protocol host, with the service's {@link ProtocolListener} beans (all told), its {@link
   * CommitHook} bean, {@link Clock} bean and {@link AgentActions} bean (which agent events are
   * actions, the host's reserved event types, the AgentWorkers it knows), if it has them.
   */
  @Bean
  @ConditionalOnMissingBean
  public ProtocolHost jarvisProtocolHost(
      JarvisHostProperties properties,
      HostAuth auth,
      HostStores stores,
      ObjectProvider<ProtocolListener> listeners,
      ObjectProvider<CommitHook> commitHook,
      ObjectProvider<Clock> clock,
      ObjectProvider<AgentActions> agentActions) {
    HostConfig.Builder config =
        HostConfig.builder(auth)
            .adminActorId(properties.getAdminActor())
            .timestampTolerance(properties.getTimestampTolerance())
            .idempotencyRetention(properties.getIdempotencyRetention())
            .stores(stores)
            .listener(new AllListeners(listeners.orderedStream().toList()));
    commitHook.ifAvailable(config::commitHook);
    clock.ifAvailable(config::clock);
    agentActions.ifAvailable(config::agentActions);
    ProtocolHost host = new ProtocolHost(config.build());
    for (Path policy : properties.getPolicies()) {
      host.seedPolicy(read(policy));
    }
    return host;
  }

  /** Idempotency records past their retention deleted on a schedule (see the class). */
  @Bean
  @ConditionalOnMissingBean
  public JarvisIdempotencyPurge jarvisIdempotencyPurge(
      JarvisHostProperties properties, ProtocolHost host) {
    return new JarvisIdempotencyPurge(
        host, properties.getIdempotencyPurgeInterval(), dev.jarvis.host.IdempotencyPurge::every);
  }

  private static JsonNode read(Path policy) {
    try {
      return JarvisJson.mapper().readTree(Files.readAllBytes(policy));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the Policy file " + policy, e);
    }
  }

  /**
   * The binding in a Jersey servlet of its own at {@code jarvis.host.path}: an application that is
   * nothing but the Jarvis host ({@code owningTheApplication}), so every request under the path is
   * answered with protocol errors and headers, and nothing outside it is touched.
   */
  @Bean
  @ConditionalOnMissingBean(name = "jarvisServlet")
  public ServletRegistrationBean<ServletContainer> jarvisServlet(
      JarvisHostProperties properties, ProtocolHost host) {
    ResourceConfig app =
        new ResourceConfig()
            .register(JacksonFeature.withoutExceptionMappers())
            .register(JarvisHostFeature.owningTheApplication(host));
    ProtocolResource.all().forEach(app::register);
    ServletRegistrationBean<ServletContainer> servlet =
        new ServletRegistrationBean<>(new ServletContainer(app), mapping(properties.getPath()));
    servlet.setName("jarvis");
    servlet.setLoadOnStartup(1);
    return servlet;
  }

  /**
   * {@code /jarvis} → {@code /jarvis/*}; the root is refused: it would take the service's paths.
   */
  static String mapping(String path) {
    String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    if (trimmed.isEmpty() || !trimmed.startsWith("/") || trimmed.contains("*")) {
      throw new IllegalStateException(
          "jarvis.host.path must be a path below the root, like /jarvis: " + path);
    }
    return trimmed + "/*";
  }

  /** Every listener bean, each told in turn; one that throws does not stop the others. */
  static final class AllListeners implements ProtocolListener {
    private final List<ProtocolListener> listeners;

    AllListeners(List<ProtocolListener> listeners) {
      this.listeners = List.copyOf(listeners);
    }

    private void each(java.util.function.Consumer<ProtocolListener> call) {
      for (ProtocolListener listener : listeners) {
        try {
          call.accept(listener);
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.WARNING, "a ProtocolListener failed", e);
        }
      }
    }

    @Override
    public void accepted(dev.jarvis.host.HandledCall call) {
      each(l -> l.accepted(call));
    }

    @Override
    public void replayed(dev.jarvis.host.HandledCall call) {
      each(l -> l.replayed(call));
    }

    @Override
    public void refused(dev.jarvis.host.RefusedCall refusal) {
      each(l -> l.refused(refusal));
    }

    @Override
    public void failed(dev.jarvis.host.RefusedCall failure) {
      each(l -> l.failed(failure));
    }

    @Override
    public void hostWrote(dev.jarvis.host.HostWrittenEvent written) {
      each(l -> l.hostWrote(written));
    }
  }

  /** The host's health: up while its store answers. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  static class Health {
    @Bean
    @ConditionalOnMissingBean(name = "jarvisHostHealthIndicator")
    JarvisHostHealthIndicator jarvisHostHealthIndicator(HostStores stores) {
      return new JarvisHostHealthIndicator(stores);
    }
  }

  /** Counters per outcome, operation and error_id, when Micrometer is on the classpath. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
  static class Metrics {
    @Bean
    @ConditionalOnMissingBean
    JarvisHostMetrics jarvisHostMetrics(
        ObjectProvider<io.micrometer.core.instrument.MeterRegistry> registry) {
      return new JarvisHostMetrics(registry);
    }
  }
}
