package dev.jarvis.examples.boot;

import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** The service's own endpoints, as they were before Jarvis came. */
@RestController
@RequestMapping("/api")
public class OrdersController {

  /** An order, as the service's own JSON mapping reads and writes it. */
  public record Order(String id, int quantity) {}

  @GetMapping("/orders/{id}")
  public Order order(@PathVariable String id) {
    throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no order " + id);
  }

  @PostMapping("/orders")
  public Order create(@RequestBody Order order) {
    return order;
  }

  @GetMapping("/broken")
  public Order broken() {
    throw new IllegalArgumentException("the service's own failure");
  }

  /** Named like a protocol operation, by bad luck; the protocol never sees it. */
  @GetMapping("/hr/workers/{id}")
  public Map<String, String> registerWorker(@PathVariable String id) {
    return Map.of("worker", id);
  }
}
