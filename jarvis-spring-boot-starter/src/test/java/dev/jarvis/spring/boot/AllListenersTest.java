package dev.jarvis.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.host.ProtocolListener;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every listener bean hears every kind of report: the composite the starter hands the host forwards
 * each method of {@link ProtocolListener}, including ones added after it was written (a method it
 * did not override would fall to the interface's default and reach no bean).
 */
class AllListenersTest {

  static Stream<Method> reports() {
    return Arrays.stream(ProtocolListener.class.getMethods())
        .filter(m -> !java.lang.reflect.Modifier.isStatic(m.getModifiers()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("reports")
  void everyListenerBeanIsToldOfEachReport(Method report) throws Exception {
    List<String> heard = new ArrayList<>();
    ProtocolListener first = recording("first", heard);
    ProtocolListener second = recording("second", heard);

    report.invoke(
        new JarvisHostAutoConfiguration.AllListeners(List.of(first, second)),
        new Object[report.getParameterCount()]);

    assertEquals(List.of("first " + report.getName(), "second " + report.getName()), heard);
  }

  private static ProtocolListener recording(String name, List<String> heard) {
    return (ProtocolListener)
        Proxy.newProxyInstance(
            ProtocolListener.class.getClassLoader(),
            new Class<?>[] {ProtocolListener.class},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return method.getName().equals("toString") ? name : null;
              }
              heard.add(name + " " + method.getName());
              return null;
            });
  }
}
