package dev.jarvis.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.notify.RequestNotifier;
import dev.jarvis.host.notify.WebhookNotifier;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/** {@code jarvis.host.notifications.*}: the webhook, its secret file and the dispatcher. */
class JarvisNotificationsPropertiesTest {

  private final WebApplicationContextRunner demo =
      new WebApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(JarvisHostAutoConfiguration.class))
          .withPropertyValues("jarvis.host.demo-token=demo-token-for-tests");

  @TempDir Path dir;

  @Test
  void withAWebhookTheHostWritesNotificationsAndADispatcherRuns() throws Exception {
    Path secret = Files.writeString(dir.resolve("secret"), "a-webhook-secret-for-the-starter\n");
    demo.withPropertyValues(
            "jarvis.host.notifications.webhook.url=http://127.0.0.1:9/hooks/jarvis",
            "jarvis.host.notifications.webhook.secret-file=" + secret,
            "jarvis.host.notifications.webhook.allow-private=true",
            "jarvis.host.notifications.interval=250ms")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(RequestNotifier.class))
                  .isInstanceOf(WebhookNotifier.class)
                  .hasToString(
                      "WebhookNotifier[http://127.0.0.1:9/hooks/jarvis,"
                          + " private addresses allowed]");
              assertThat(context.getBean(ProtocolHost.class).config().requestNotifications())
                  .isTrue();
              JarvisNotifications notifications = context.getBean(JarvisNotifications.class);
              assertThat(notifications.dispatcher()).isPresent();
              assertThat(notifications.isRunning()).isTrue();
            });
  }

  @Test
  void withoutAWebhookNothingIsWrittenAndNoDispatcherRuns() {
    demo.run(
        context -> {
          assertThat(context).doesNotHaveBean(RequestNotifier.class);
          assertThat(context.getBean(ProtocolHost.class).config().requestNotifications()).isFalse();
          assertThat(context.getBean(JarvisNotifications.class).dispatcher()).isEmpty();
        });
  }

  @Test
  void aWebhookWithoutASecretFileFailsTheStartNamingTheProperty() {
    demo.withPropertyValues("jarvis.host.notifications.webhook.url=https://hooks.example.com/j")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("jarvis.host.notifications.webhook.secret-file"));
  }

  @Test
  void theServicesOwnNotifierIsUsedInsteadOfTheWebhook() {
    RequestNotifier own = n -> {};
    demo.withBean(RequestNotifier.class, () -> own)
        .run(
            context -> {
              assertThat(context.getBean(RequestNotifier.class)).isSameAs(own);
              assertThat(context.getBean(JarvisNotifications.class).dispatcher()).isPresent();
            });
  }
}
