package dev.jarvis.spring.boot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.host.AgentActions;
import dev.jarvis.host.CommitHook;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.ProtocolListener;
import dev.jarvis.host.StoreReadiness;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.host.notify.NotificationDispatcher;
import dev.jarvis.host.notify.RequestNotifier;
import dev.jarvis.host.notify.WebhookNotifier;
import dev.jarvis.host.servlet.JarvisServlet;
import dev.jarvis.store.jdbc.JdbcHostStores;
import dev.jarvis.store.jdbc.StoreSpec;
import dev.jarvis.store.jdbc.StoreTimeouts;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;

/**
 * A Jarvis host inside a Spring Boot servlet application, from {@code jarvis.host.*}: the host kit
 * as a servlet of its own ({@link JarvisServlet}, no JAX-RS runtime) at {@code jarvis.host.path},
 * so the service's own endpoints (Spring MVC, or a Jersey application of its own) keep their
 * errors, headers and JSON mapping. Every bean backs off when the service defines its own; {@code
 * jarvis.host.enabled=false} turns all of it off.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ProtocolHost.class, JarvisServlet.class})
@ConditionalOnBooleanProperty(name = "jarvis.host.enabled", matchIfMissing = true)
@EnableConfigurationProperties(JarvisHostProperties.class)
public class JarvisHostAutoConfiguration {

  private static final Logger LOG = LoggerFactory.getLogger("dev.jarvis.spring.boot");

  /** Logged when the host runs with one token acting as anyone. */
  static final String DEMO_MODE_NOTICE =
      "Jarvis host in demo mode: jarvis.host.demo-token may act as any Actor and administer;"
          + " set jarvis.host.credentials-file to bind tokens to Actors";

  /** Spring Security's holder of the request's Authentication: the class it needs present. */
  static final String SPRING_SECURITY_CLASS =
      "org.springframework.security.core.context.SecurityContextHolder";

  /**
   * A plain path in {@code jarvis.host.*} is a file relative to the working directory in a servlet
   * application too, where Spring would resolve it against the servlet context ({@link
   * JarvisHostPlainPaths}). Static, as a post-processor must be, and not public API.
   */
  @Bean
  static BeanPostProcessor jarvisHostPlainPaths(
      Environment environment, org.springframework.core.io.ResourceLoader context) {
    return new JarvisHostPlainPaths(environment, context);
  }

  /**
   * The host's credentials: the credentials file, or the demo token (announced); or, with {@code
   * jarvis.host.auth=spring-security}, the service's Spring Security Authentication.
   */
  @Bean
  @ConditionalOnMissingBean
  public HostAuth jarvisHostAuth(
      JarvisHostProperties properties, org.springframework.core.io.ResourceLoader context) {
    Resource file = properties.getCredentialsFile();
    boolean hasToken = properties.getDemoToken() != null && !properties.getDemoToken().isBlank();
    if (properties.getAuth() == JarvisHostProperties.AuthKind.SPRING_SECURITY) {
      if (file != null || hasToken) {
        throw new IllegalStateException(
            "jarvis.host.auth=spring-security takes the caller from Spring Security:"
                + " remove jarvis.host.credentials-file and jarvis.host.demo-token");
      }
      // The application's class loader, as @ConditionalOnClass would look.
      if (!org.springframework.util.ClassUtils.isPresent(
          SPRING_SECURITY_CLASS, context.getClassLoader())) {
        throw new IllegalStateException(
            "jarvis.host.auth=spring-security needs Spring Security on the classpath:"
                + " add spring-boot-starter-security (or a resource server starter),"
                + " or use jarvis.host.auth=credentials");
      }
      // Its own class, loaded only here: Spring Security stays optional for the starter.
      JarvisHostProperties.SpringSecurity rule = properties.getSpringSecurity();
      return SpringSecurityHostAuth.of(
          rule.getActorsClaim(), rule.getActorAuthorityPrefix(), rule.getAdminAuthority());
    }
    if (file != null) {
      if (hasToken) {
        throw new IllegalStateException(
            "set jarvis.host.credentials-file or jarvis.host.demo-token, not both");
      }
      return JarvisHostFiles.credentials(file);
    }
    if (hasToken) {
      LOG.warn(DEMO_MODE_NOTICE);
      return HostAuth.bearer(properties.getDemoToken());
    }
    throw new JarvisHostFileException(
        "jarvis.host.credentials-file",
        "(not set)",
        "a Jarvis host needs credentials",
        "set jarvis.host.credentials-file (or jarvis.host.demo-token for a demo)",
        null);
  }

  /**
   * Where the host keeps its state; closed after the web server stopped. Opened after the service's
   * own database initialisation (its Flyway or Liquibase, Boot's SQL scripts), in a schema of its
   * own on the service's DataSource; with {@code jarvis.host.store.fail-fast=false} the service
   * starts even when it cannot be reached, and the store opens once it can.
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @DependsOnDatabaseInitialization
  public HostStores jarvisHostStores(
      JarvisHostProperties properties, ObjectProvider<DataSource> dataSource) {
    JarvisHostProperties.Store store = properties.getStore();
    StoreTimeouts timeouts = StoreTimeouts.defaults().withPoolWait(store.getTimeout());
    Supplier<HostStores> opening =
        switch (store.getKind()) {
          case MEMORY -> HostStores::inMemory;
          case EMBEDDED -> {
            if (!org.springframework.util.ClassUtils.isPresent(
                "org.sqlite.JDBC", JarvisHostAutoConfiguration.class.getClassLoader())) {
              // The starter leaves SQLite out unless asked; say how to ask.
              throw new IllegalStateException(
                  "jarvis.host.store.kind=embedded needs org.xerial:sqlite-jdbc on the classpath:"
                      + " add it as a dependency, or use kind=datasource or memory");
            }
            yield () -> StoreSpec.embedded(store.getDataDir()).open(Optional.empty(), timeouts);
          }
          case DATASOURCE -> {
            DataSource service =
                Optional.ofNullable(dataSource.getIfUnique())
                    .orElseThrow(
                        () ->
                            new IllegalStateException(
                                "jarvis.host.store.kind=datasource needs one DataSource bean"));
            warnOfALongPoolWait(service, store.getTimeout());
            yield () -> JdbcHostStores.on(service, store.getSchema(), timeouts);
          }
        };
    return store.isFailFast() ? opening.get() : StoreOnceReachable.tryingNow(opening);
  }

  /**
   * On the service's pool, the wait for a connection is the pool's: Boot's HikariCP waits 30 s by
   * default, which every Jarvis call (and the service's own) would wait on a database that is down.
   * Jarvis cannot change the service's pool; it says so once.
   */
  static void warnOfALongPoolWait(DataSource service, java.time.Duration bound) {
    try {
      if (service.isWrapperFor(com.zaxxer.hikari.HikariDataSource.class)) {
        long wait = service.unwrap(com.zaxxer.hikari.HikariDataSource.class).getConnectionTimeout();
        if (wait > bound.toMillis()) {
          LOG.warn(
              "the service's connection pool waits {} ms for a connection, longer than"
                  + " jarvis.host.store.timeout ({} ms): a Jarvis call on a database that is down"
                  + " waits that long before its 503; set"
                  + " spring.datasource.hikari.connection-timeout={}",
              wait,
              bound.toMillis(),
              bound.toMillis());
        }
      }
    } catch (java.sql.SQLException | RuntimeException | LinkageError e) {
      // Not HikariCP, or not reachable: nothing to say.
    }
  }

  /**
   * The protocol host, with the service's {@link ProtocolListener} beans (all told), its {@link
   * CommitHook} bean, {@link Clock} bean, {@link AgentActions} bean (which agent events are
   * actions, the host's reserved event types, the AgentWorkers it knows) and {@link JarvisTraceIds}
   * bean (the service's tracer), if it has them.
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
      ObjectProvider<AgentActions> agentActions,
      ObjectProvider<WorkSessionGovernance> governance,
      ObjectProvider<JarvisTraceIds> traceIds,
      ObjectProvider<RequestNotifier> notifier) {
    HostConfig.Builder config =
        HostConfig.builder(auth)
            .adminActorId(properties.getAdminActor())
            .timestampTolerance(properties.getTimestampTolerance())
            .idempotencyRetention(properties.getIdempotencyRetention())
            .stores(stores)
            .listener(new AllListeners(listeners.orderedStream().toList()))
            // The servlet serves all three: an agent can read its Request and wait for its
            // answer, a human can list what waits for it.
            .capability(RequestRead.CAPABILITY)
            .capability(HostConfig.EVENT_STREAM)
            .capability(RequestInbox.CAPABILITY);
    commitHook.ifAvailable(config::commitHook);
    // A notifier (the webhook of jarvis.host.notifications.webhook.*, or the service's own bean)
    // turns the outbox on: each notification is written in its event's unit of work.
    config.requestNotifications(notifier.getIfAvailable() != null);
    clock.ifAvailable(config::clock);
    agentActions.ifAvailable(config::agentActions);
    traceIds.ifAvailable(config::traceIds);
    if (properties.getActorKeysFile() != null) {
      config.actorKeys(JarvisHostFiles.actorKeys(properties.getActorKeysFile()));
    }
    config.governance(governance.getIfAvailable(() -> governance(properties)));
    ProtocolHost host = new ProtocolHost(config.build());
    for (Resource policy : properties.getPolicies()) {
      JsonNode json = JarvisHostFiles.policy(policy);
      try {
        host.seedPolicy(json);
      } catch (IllegalArgumentException e) {
        throw new JarvisHostFileException(
            "jarvis.host.policies",
            JarvisHostFiles.resolve(policy).getDescription(),
            e.getMessage(),
            "fix the Policy record (the spec's Policy schema)",
            e);
      }
    }
    LOG.info(startUpLine(properties, auth));
    return host;
  }

  /**
   * {@code jarvis.host.policy-assignments} and {@code jarvis.host.agent-serves}, unless the service
   * declares a {@link WorkSessionGovernance} bean of its own.
   */
  static WorkSessionGovernance governance(JarvisHostProperties properties) {
    WorkSessionGovernance governance = WorkSessionGovernance.NONE;
    String property = "jarvis.host.policy-assignments";
    try {
      for (String text : properties.getPolicyAssignments()) {
        governance = governance.withPolicyAssignment(text);
      }
      property = "jarvis.host.agent-serves";
      for (String text : properties.getAgentServes()) {
        governance = governance.withAgentServing(text);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(property + ": " + e.getMessage(), e);
    }
    return governance;
  }

  /** What the service's log says once the host is built: where, which store, how many keys. */
  static String startUpLine(JarvisHostProperties properties, HostAuth auth) {
    JarvisHostProperties.Store store = properties.getStore();
    String where =
        switch (store.getKind()) {
          case MEMORY -> "memory (lost on exit)";
          case EMBEDDED -> "embedded SQLite in " + store.getDataDir().toAbsolutePath();
          case DATASOURCE -> "the service's DataSource, schema " + store.getSchema();
        };
    String credentials =
        auth instanceof Credentials held
            ? held.size() + " credential" + (held.size() == 1 ? "" : "s")
            : properties.getDemoToken() != null
                ? "the demo token"
                // Only then: the class needs Spring Security, which is optional.
                : properties.getAuth() == JarvisHostProperties.AuthKind.SPRING_SECURITY
                        && auth instanceof SpringSecurityHostAuth security
                    ? security.describe()
                    : "the service's HostAuth";
    return "Jarvis host at "
        + properties.getPath()
        + ": store "
        + where
        + (store.isFailFast() ? "" : " (fail-fast off)")
        + ", "
        + credentials
        + ", "
        + properties.getPolicies().size()
        + " Polic"
        + (properties.getPolicies().size() == 1 ? "y" : "ies");
  }

  /** Idempotency records past their retention deleted on a schedule (see the class). */
  @Bean
  @ConditionalOnMissingBean
  public JarvisIdempotencyPurge jarvisIdempotencyPurge(
      JarvisHostProperties properties, ProtocolHost host) {
    return new JarvisIdempotencyPurge(
        host, properties.getIdempotencyPurgeInterval(), dev.jarvis.host.IdempotencyPurge::every);
  }

  /**
   * Requests written expired on time, and event streams ended before the web server drains (see the
   * class).
   */
  @Bean
  @ConditionalOnMissingBean
  public JarvisLiveLoop jarvisLiveLoop(JarvisHostProperties properties, ProtocolHost host) {
    return new JarvisLiveLoop(host, properties.getRequestExpiryInterval());
  }

  /**
   * The built-in webhook, when {@code jarvis.host.notifications.webhook.url} is set: signed POSTs,
   * its secret from {@code secret-file}, private addresses only with {@code allow-private}.
   */
  @Bean
  @ConditionalOnMissingBean
  @org.springframework.boot.autoconfigure.condition.ConditionalOnProperty(
      prefix = "jarvis.host.notifications.webhook",
      name = "url")
  public RequestNotifier jarvisWebhookNotifier(
      JarvisHostProperties properties, ObjectProvider<Clock> clock) {
    JarvisHostProperties.Webhook webhook = properties.getNotifications().getWebhook();
    if (webhook.getSecretFile() == null) {
      throw new IllegalStateException(
          "jarvis.host.notifications.webhook.url needs"
              + " jarvis.host.notifications.webhook.secret-file (the secret is never a property)");
    }
    WebhookNotifier.Builder builder =
        WebhookNotifier.builder(
                webhook.getUrl(), JarvisHostFiles.webhookSecret(webhook.getSecretFile()))
            .allowPrivate(webhook.isAllowPrivate());
    clock.ifAvailable(builder::clock);
    return builder.build();
  }

  /** This instance's notification dispatcher, run while the service runs (see the class). */
  @Bean
  @ConditionalOnMissingBean
  public JarvisNotifications jarvisNotifications(
      JarvisHostProperties properties,
      ProtocolHost host,
      ObjectProvider<RequestNotifier> notifier) {
    Optional<NotificationDispatcher> dispatcher = Optional.empty();
    RequestNotifier available = notifier.getIfAvailable();
    if (available != null && host.config().requestNotifications()) {
      dispatcher =
          Optional.of(
              NotificationDispatcher.builder(
                      host.config().stores().notificationOutbox().orElseThrow(), available)
                  .clock(host.config().clock())
                  .build());
    }
    return new JarvisNotifications(dispatcher, properties.getNotifications().getInterval());
  }

  /** Each request to the Jarvis servlet logged in one line and timed (see the class). */
  @Bean
  @ConditionalOnMissingBean
  public JarvisRequestObserver jarvisRequestObserver(
      JarvisHostProperties properties, ObjectProvider<JarvisRequest.Listener> listeners) {
    return new JarvisRequestObserver(
        properties.getPath(),
        properties.isLogRequests(),
        listeners.orderedStream().toList(),
        System::nanoTime);
  }

  /** The observer as a filter on the Jarvis servlet only. */
  @Bean
  @ConditionalOnMissingBean(name = "jarvisRequestObserverFilter")
  public FilterRegistrationBean<JarvisRequestObserver> jarvisRequestObserverFilter(
      JarvisRequestObserver observer) {
    FilterRegistrationBean<JarvisRequestObserver> filter = new FilterRegistrationBean<>(observer);
    filter.setName("jarvisRequestObserver");
    filter.addServletNames("jarvis");
    return filter;
  }

  /**
   * The host kit as a servlet of its own at {@code jarvis.host.path}: every request under the path
   * is answered by the host kit ({@code ProtocolHost.answer}), with protocol errors and headers,
   * and nothing outside it is touched.
   */
  @Bean
  @ConditionalOnMissingBean(name = "jarvisServlet")
  public ServletRegistrationBean<JarvisServlet> jarvisServlet(
      JarvisHostProperties properties, ProtocolHost host) {
    ServletRegistrationBean<JarvisServlet> servlet =
        new ServletRegistrationBean<>(new JarvisServlet(host), mapping(properties.getPath()));
    servlet.setName("jarvis");
    servlet.setLoadOnStartup(1);
    // Event streams and long polls wait in async mode, writing without blocking: no thread each.
    servlet.setAsyncSupported(true);
    return servlet;
  }

  /**
   * The review console at {@code jarvis.host.path}{@code /console/} when {@code
   * jarvis.host.console.enabled=true} (docs/console.md).
   */
  @Bean
  @ConditionalOnMissingBean(name = "jarvisConsoleServlet")
  @org.springframework.boot.autoconfigure.condition.ConditionalOnProperty(
      name = "jarvis.host.console.enabled",
      havingValue = "true")
  public ServletRegistrationBean<JarvisConsoleServlet> jarvisConsoleServlet(
      JarvisHostProperties properties, ProtocolHost host, HostAuth auth) {
    String base = mapping(properties.getPath());
    ServletRegistrationBean<JarvisConsoleServlet> servlet =
        new ServletRegistrationBean<>(
            new JarvisConsoleServlet(
                host,
                properties.getPath(),
                java.util.Optional.ofNullable(properties.getConsole().getHostUri()),
                consoleSessions(properties, auth)),
            base.substring(0, base.length() - 2) + "/console/*");
    servlet.setName("jarvisConsole");
    return servlet;
  }

  /**
   * The console's sign-in through the service's own login: under {@code
   * jarvis.host.auth=spring-security} with Spring Security's web part present, a session the
   * service's chain authenticated (see {@link ConsoleSessionSignIn}); otherwise none, and only a
   * bearer token signs in.
   */
  static java.util.function.Function<
          jakarta.servlet.http.HttpServletRequest,
          java.util.Optional<dev.jarvis.console.SessionCaller>>
      consoleSessions(JarvisHostProperties properties, HostAuth auth) {
    if (properties.getAuth() == JarvisHostProperties.AuthKind.SPRING_SECURITY
        && auth instanceof SpringSecurityHostAuth security
        && org.springframework.util.ClassUtils.isPresent(
            "org.springframework.security.web.csrf.DeferredCsrfToken",
            JarvisHostAutoConfiguration.class.getClassLoader())) {
      // Its own class, loaded only here: Spring Security's web part stays optional.
      return new ConsoleSessionSignIn(security);
    }
    return request -> java.util.Optional.empty();
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
          LOG.warn("a ProtocolListener failed", e);
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
    public void failed(dev.jarvis.host.FailedCall failure) {
      each(l -> l.failed(failure));
    }

    @Override
    public void hostWrote(dev.jarvis.host.HostWrittenEvent written) {
      each(l -> l.hostWrote(written));
    }
  }

  /**
   * With {@code jarvis.host.auth=spring-security} and Spring Security's web part present: the entry
   * point a service sets in its chain for the Jarvis path, so a credential the chain refuses is
   * answered with the host's {@code ProtocolError} (see the class).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.security.web.AuthenticationEntryPoint")
  @org.springframework.boot.autoconfigure.condition.ConditionalOnProperty(
      name = "jarvis.host.auth",
      havingValue = "spring-security")
  static class SpringSecurityEntryPoint {
    @Bean
    @ConditionalOnMissingBean
    JarvisAuthenticationEntryPoint jarvisAuthenticationEntryPoint(ProtocolHost host) {
      return new JarvisAuthenticationEntryPoint(host);
    }
  }

  /** The host's health: up while its store answers, checked in the background. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  static class Health {
    @Bean
    @ConditionalOnMissingBean(name = "jarvisHostHealthIndicator")
    JarvisHostHealthIndicator jarvisHostHealthIndicator(
        JarvisHostProperties properties, HostStores stores) {
      return new JarvisHostHealthIndicator(
          stores, StoreReadiness.DEFAULT_INTERVAL, properties.getStore().getTimeout());
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
