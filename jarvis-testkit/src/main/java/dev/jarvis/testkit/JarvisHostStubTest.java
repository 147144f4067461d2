package dev.jarvis.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs each test of the class against a fresh {@link JarvisHostStub}, injected into any test or
 * lifecycle method parameter of that type, as WireMock's {@code @WireMockTest} does:
 *
 * <pre>{@code
 * @JarvisHostStubTest
 * class AgentStepTest {
 *   @Test
 *   void recordsADecision(JarvisHostStub host) {
 *     JarvisClient client = JarvisClient.create(options(host.baseUri()));
 *     ...
 *   }
 * }
 * }</pre>
 *
 * For a clock, id supplier or Policies of your own, register the stub on a field with
 * {@code @RegisterExtension} and {@link JarvisHostStub#builder()} instead.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(JarvisHostStubExtension.class)
public @interface JarvisHostStubTest {

  /** The capabilities the stub declares; by default {@link JarvisHostStub#DEFAULT_CAPABILITIES}. */
  String[] capabilities() default {"cursor-headers"};

  /** Whether a test fails when its requests broke a rule the host's guard checks. */
  boolean failOnReceivedViolations() default true;
}
