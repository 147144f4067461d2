package dev.jarvis.spring.boot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collector;
import java.util.stream.Collectors;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.io.ApplicationResourceLoader;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ResourceUtils;

/**
 * Makes a plain path in a path-like {@code jarvis.host.*} property mean what the docs say, a file
 * relative to the working directory (or an absolute one), in every application. Spring binds a
 * location without a prefix through the context's resource loader, and in a servlet application on
 * a real web server that is the servlet context: {@code config/jarvis-credentials.json} became
 * {@code /config/jarvis-credentials.json} inside the server's document root, and start-up failed.
 * (Spring's {@code Path} binding falls back to the plain path where the document root holds no such
 * file, so the store's data directory went astray only where it did; it follows the one rule here
 * all the same.) So, once {@link JarvisHostProperties} is bound, each such property is bound again
 * from its text as the service wrote it: {@code classpath:}, {@code file:} and other prefixes as
 * Spring resolves them, a plain path as a file (Boot's {@link ApplicationResourceLoader}, which
 * Boot uses for its own locations). A property the environment does not hold (set in code) is left
 * as set.
 */
final class JarvisHostPlainPaths implements BeanPostProcessor {

  private final Environment environment;
  private final ResourceLoader locations;

  JarvisHostPlainPaths(Environment environment, ResourceLoader context) {
    this.environment = environment;
    this.locations = ApplicationResourceLoader.get(context, true);
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (bean instanceof JarvisHostProperties properties) {
      rebind(properties);
    }
    return bean;
  }

  /** A list as the property's own default is: one the service may still add to. */
  private static Collector<Resource, ?, List<Resource>> toList() {
    return Collectors.toCollection(ArrayList::new);
  }

  private void rebind(JarvisHostProperties properties) {
    Binder binder = Binder.get(environment);
    // An empty value means "none", as Spring's own binding of a Resource reads it (a service that
    // sets demo-token clears a credentials-file its defaults name).
    binder
        .bind("jarvis.host.credentials-file", String.class)
        .ifBound(text -> properties.setCredentialsFile(resource(text)));
    binder
        .bind("jarvis.host.actor-keys-file", String.class)
        .ifBound(text -> properties.setActorKeysFile(resource(text)));
    binder
        .bind("jarvis.host.policies", Bindable.listOf(String.class))
        .map(
            texts ->
                texts.stream()
                    .filter(text -> !text.isBlank())
                    .map(locations::getResource)
                    .collect(toList()))
        .ifBound(properties::setPolicies);
    binder
        .bind("jarvis.host.store.data-dir", String.class)
        // file: and other URLs bind to the right path already; only a plain path goes astray.
        .map(text -> ResourceUtils.isUrl(text) ? properties.getStore().getDataDir() : Path.of(text))
        .ifBound(properties.getStore()::setDataDir);
  }

  private Resource resource(String text) {
    return text.isBlank() ? null : locations.getResource(text);
  }
}
