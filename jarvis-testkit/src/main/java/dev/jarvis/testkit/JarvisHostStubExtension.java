package dev.jarvis.testkit;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link JarvisHostStubTest}: one stub per test, built from the annotation,
 * started before the test and checked and stopped after it.
 */
final class JarvisHostStubExtension
    implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(JarvisHostStubExtension.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    stub(context).beforeEach(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    stub(context).afterEach(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == JarvisHostStub.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return stub(context).start();
  }

  private static JarvisHostStub stub(ExtensionContext context) {
    return context
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(JarvisHostStub.class, key -> build(context), JarvisHostStub.class);
  }

  private static JarvisHostStub build(ExtensionContext context) {
    JarvisHostStubTest settings =
        AnnotationSupport.findAnnotation(context.getRequiredTestClass(), JarvisHostStubTest.class)
            .orElseThrow(
                () -> new IllegalStateException("@JarvisHostStubTest is missing on the class"));
    return JarvisHostStub.builder()
        .capabilities(settings.capabilities())
        .failOnReceivedViolations(settings.failOnReceivedViolations())
        .build();
  }
}
