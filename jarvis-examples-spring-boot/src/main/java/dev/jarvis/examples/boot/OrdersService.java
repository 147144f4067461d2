package dev.jarvis.examples.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An existing service (an orders API on Spring MVC) with a Jarvis host added by one dependency,
 * {@code jarvis-spring-boot-starter}, and the {@code jarvis.host.*} properties of {@code
 * application.properties}. Run it with {@code JARVIS_CREDENTIALS=credentials.json}; the protocol is
 * then served under {@code http://localhost:8080/jarvis/}, the orders API where it was.
 */
@SpringBootApplication
public class OrdersService {

  public static void main(String[] args) {
    SpringApplication.run(OrdersService.class, args);
  }
}
