package dev.jarvis.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jarvis.core.signature.ActorKey;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.samples.SampleRecords;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLNonTransientConnectionException;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

/** Each condition and property of the starter, the Spring way: a context per case. */
class JarvisHostAutoConfigurationTest {

  private final WebApplicationContextRunner runner =
      new WebApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(JarvisHostAutoConfiguration.class));

  private final WebApplicationContextRunner demo =
      runner.withPropertyValues("jarvis.host.demo-token=demo-token-for-tests");

  @Test
  void aDemoHostHasTheProtocolHostItsServletAtThePathTheObserverHealthAndThePurge() {
    demo.withPropertyValues("jarvis.host.path=/agents")
        .run(
            context -> {
              assertThat(context).hasSingleBean(ProtocolHost.class);
              assertThat(context).hasSingleBean(JarvisHostHealthIndicator.class);
              assertThat(context).hasSingleBean(JarvisIdempotencyPurge.class);
              assertThat(context).hasSingleBean(JarvisRequestObserver.class);
              ServletRegistrationBean<?> servlet =
                  context.getBean("jarvisServlet", ServletRegistrationBean.class);
              assertThat(List.copyOf(servlet.getUrlMappings())).isEqualTo(List.of("/agents/*"));
              FilterRegistrationBean<?> filter =
                  context.getBean("jarvisRequestObserverFilter", FilterRegistrationBean.class);
              assertThat(List.copyOf(filter.getServletNames())).isEqualTo(List.of("jarvis"));
            });
  }

  @Test
  void enabledFalseLeavesNoJarvisBeanBehindEvenWithoutCredentials() {
    runner
        .withPropertyValues("jarvis.host.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(ProtocolHost.class);
              assertThat(context).doesNotHaveBean(HostStores.class);
              assertThat(context).doesNotHaveBean(JarvisHostHealthIndicator.class);
              assertThat(context).doesNotHaveBean(JarvisIdempotencyPurge.class);
              assertThat(context).doesNotHaveBean("jarvisServlet");
            });
  }

  @Test
  void withoutCredentialsStartUpFailsWithOneLineNamingThePropertyToSet() {
    runner.run(
        context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = analysis(context.getStartupFailure());
          assertThat(analysis.getDescription()).contains("jarvis.host.credentials-file");
          assertThat(analysis.getAction()).contains("jarvis.host.demo-token");
        });
  }

  @Test
  void springSecurityAuthTakesTheCallerFromTheServicesAuthenticationWithNoCredentialsFile() {
    runner
        .withPropertyValues(
            "jarvis.host.auth=spring-security",
            "jarvis.host.spring-security.actors-claim=acts_as",
            "jarvis.host.spring-security.admin-authority=SCOPE_jarvis.admin")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(HostAuth.class))
                  .isInstanceOf(SpringSecurityHostAuth.class);
              assertThat(
                      JarvisHostAutoConfiguration.startUpLine(
                          context.getBean(JarvisHostProperties.class),
                          context.getBean(HostAuth.class)))
                  .contains("Spring Security")
                  .contains("acts_as")
                  .contains("SCOPE_jarvis.admin");
            });
  }

  @Test
  void theEntryPointForTheServicesChainIsThereOnlyWithSpringSecurityAuthAndItsWebPart() {
    runner
        .withPropertyValues("jarvis.host.auth=spring-security")
        .run(context -> assertThat(context).hasSingleBean(JarvisAuthenticationEntryPoint.class));
    demo.run(context -> assertThat(context).doesNotHaveBean(JarvisAuthenticationEntryPoint.class));
    runner
        .withClassLoader(new FilteredClassLoader("org.springframework.security.web"))
        .withPropertyValues("jarvis.host.auth=spring-security")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(JarvisAuthenticationEntryPoint.class);
              assertThat(context.getBean(HostAuth.class))
                  .isInstanceOf(SpringSecurityHostAuth.class);
            });
  }

  @Test
  void springSecurityAuthWithoutSpringSecurityOnTheClassPathSaysWhatToAdd() {
    runner
        .withClassLoader(new FilteredClassLoader("org.springframework.security"))
        .withPropertyValues("jarvis.host.auth=spring-security")
        .run(
            context ->
                assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("spring-boot-starter-security"));
  }

  @Test
  void withoutSpringSecurityOnTheClassPathTheCredentialsFileWorksAsBefore() {
    runner
        .withClassLoader(new FilteredClassLoader("org.springframework.security"))
        .withPropertyValues("jarvis.host.credentials-file=classpath:jarvis/credentials.json")
        .run(
            context -> assertThat(context.getBean(HostAuth.class)).isInstanceOf(Credentials.class));
  }

  @Test
  void springSecurityAuthBesideACredentialsFileOrDemoTokenIsRefused() {
    for (String other :
        List.of(
            "jarvis.host.credentials-file=classpath:jarvis/credentials.json",
            "jarvis.host.demo-token=demo-token-for-tests")) {
      runner
          .withPropertyValues("jarvis.host.auth=spring-security", other)
          .run(
              context ->
                  assertThat(context.getStartupFailure())
                      .rootCause()
                      .hasMessageContaining("remove jarvis.host.credentials-file"));
    }
  }

  @Test
  void credentialsFromTheClassPathAreRead() {
    runner
        .withPropertyValues("jarvis.host.credentials-file=classpath:jarvis/credentials.json")
        .run(
            context ->
                assertThat(((Credentials) context.getBean(HostAuth.class)).size()).isEqualTo(1));
  }

  @Test
  void aPlainPathStillNamesAFileAsWhenThePropertyWasAPath(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("credentials.json");
    Files.copy(Path.of("src/test/resources/jarvis/credentials.json"), file);
    runner
        .withPropertyValues("jarvis.host.credentials-file=" + file)
        .run(
            context ->
                assertThat(((Credentials) context.getBean(HostAuth.class)).size()).isEqualTo(1));
  }

  @Test
  void aMissingCredentialsFileIsReportedWithItsNameAndTheFix() {
    runner
        .withPropertyValues("jarvis.host.credentials-file=classpath:jarvis/nowhere.json")
        .run(
            context -> {
              FailureAnalysis analysis = analysis(context.getStartupFailure());
              assertThat(analysis.getDescription())
                  .contains("jarvis.host.credentials-file")
                  .contains("nowhere.json")
                  .contains("no such file");
              assertThat(analysis.getAction()).contains("create it");
            });
  }

  @Test
  void anInvalidCredentialsFileIsReportedWithTheEntryAtFault() {
    runner
        .withPropertyValues("jarvis.host.credentials-file=classpath:jarvis/broken-credentials.json")
        .run(
            context ->
                assertThat(analysis(context.getStartupFailure()).getDescription())
                    .contains("broken-credentials.json")
                    .contains("entry 0"));
  }

  @Test
  void actorKeysFromAFileAreTheHostsAndAnInvalidFileIsReportedByName(@TempDir Path dir)
      throws Exception {
    String key =
        ActorKey.encode(dev.jarvis.core.signature.SigningKey.generateKeyPair().getPublic());
    Path good =
        Files.writeString(
            dir.resolve("actor-keys.json"),
            "{\"keys\": [{\"key_id\": \"k1\", \"actor_id\": \"actor-human-1\", \"public_key\": \""
                + key
                + "\"}], \"must_sign\": [\"actor-human-1\"]}");
    Path bad = Files.writeString(dir.resolve("bad-keys.json"), "{\"keys\": [], \"x\": 1}");
    demo.withPropertyValues("jarvis.host.actor-keys-file=file:" + good)
        .run(
            context ->
                assertThat(
                        context
                            .getBean(ProtocolHost.class)
                            .config()
                            .actorKeys()
                            .mustSign("actor-human-1"))
                    .isTrue());
    demo.withPropertyValues("jarvis.host.actor-keys-file=file:" + bad)
        .run(
            context ->
                assertThat(analysis(context.getStartupFailure()).getDescription())
                    .contains("jarvis.host.actor-keys-file")
                    .contains("bad-keys.json"));
  }

  @Test
  void policiesFromFilesAreSeededAndAnInvalidOneIsReportedByName(@TempDir Path dir)
      throws Exception {
    Path good = Files.writeString(dir.resolve("policy.json"), SampleRecords.policy().toString());
    Path bad = Files.writeString(dir.resolve("bad-policy.json"), "{\"id\": \"p\"}");
    demo.withPropertyValues("jarvis.host.policies=file:" + good)
        .run(context -> assertThat(context).hasNotFailed());
    demo.withPropertyValues("jarvis.host.policies=file:" + good + ",file:" + bad)
        .run(
            context ->
                assertThat(analysis(context.getStartupFailure()).getDescription())
                    .contains("jarvis.host.policies")
                    .contains("bad-policy.json"));
  }

  @Test
  void aJarvisTraceIdsBeanGivesTheTraceIdOfARefusalWithoutTraceparent() {
    demo.withBean(JarvisTraceIds.class, () -> () -> "4bf92f3577b34da6a3ce929d0e0e4736")
        .run(
            context -> {
              var answer =
                  context
                      .getBean(ProtocolHost.class)
                      .answer(
                          "GET", "/nowhere", "", name -> java.util.Optional.empty(), new byte[0]);
              assertThat(new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8))
                  .contains("\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\"");
            });
  }

  @Test
  void aServicesOwnStoreMakesTheStarterBackOff() {
    HostStores own = HostStores.inMemory();
    demo.withBean(HostStores.class, () -> own)
        .run(context -> assertThat(context.getBean(HostStores.class)).isSameAs(own));
  }

  @Test
  void theEmbeddedStoreWithoutSqliteOnTheClassPathSaysWhatToAdd() {
    demo.withPropertyValues("jarvis.host.store.kind=embedded")
        .run(
            context ->
                assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("org.xerial:sqlite-jdbc"));
  }

  @Test
  void anUnreachableDataSourceStopsStartUpByDefault() {
    demo.withPropertyValues("jarvis.host.store.kind=datasource")
        .withBean(DataSource.class, Unreachable::new)
        .run(context -> assertThat(context).hasFailed());
  }

  @Test
  void withFailFastOffTheServiceStartsWithTheStoreDownAndJarvisReportsDown() {
    demo.withPropertyValues(
            "jarvis.host.store.kind=datasource",
            "jarvis.host.store.fail-fast=false",
            "jarvis.host.store.timeout=500ms")
        .withBean(DataSource.class, Unreachable::new)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(JarvisHostHealthIndicator.class).health().getStatus())
                  .hasToString("DOWN");
            });
  }

  private static FailureAnalysis analysis(Throwable failure) {
    FailureAnalysis analysis = new JarvisHostFailureAnalyzer().analyze(failure);
    assertThat(analysis).as("analysed: %s", failure).isNotNull();
    return analysis;
  }

  /** A database that refuses every connection, as one that is down does. */
  static final class Unreachable implements DataSource {
    @Override
    public Connection getConnection() throws SQLNonTransientConnectionException {
      throw new SQLNonTransientConnectionException("connection refused", "08001");
    }

    @Override
    public Connection getConnection(String user, String password)
        throws SQLNonTransientConnectionException {
      return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> type) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
      return false;
    }
  }
}
