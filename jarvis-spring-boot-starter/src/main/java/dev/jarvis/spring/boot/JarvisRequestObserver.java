package dev.jarvis.spring.boot;

import dev.jarvis.host.FailedCall;
import dev.jarvis.host.HandledCall;
import dev.jarvis.host.OperationRoutes;
import dev.jarvis.host.ProtocolListener;
import dev.jarvis.host.RefusedCall;
import dev.jarvis.host.TraceParent;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each request to the Jarvis servlet, observed once: a filter around the servlet times it and reads
 * its method, path and status; the host tells it, as a {@link ProtocolListener} on the same thread,
 * the operation, outcome, {@code error_id} and {@code trace_id}. The result, a {@link
 * JarvisRequest}, is logged in one line (logger {@value #LOGGER}, INFO; through SLF4J, so the
 * service's logging owns format and level) and handed to every {@link JarvisRequest.Listener} (the
 * Micrometer timer). Never a credential or a body: the Actor is the {@code Jarvis-Actor-Id} header,
 * kept only when it looks like an id.
 */
public final class JarvisRequestObserver implements Filter, ProtocolListener {

  /** The request log's logger name. */
  public static final String LOGGER = "dev.jarvis.host.requests";

  private static final Logger LOG = LoggerFactory.getLogger(LOGGER);
  private static final Pattern PLAIN_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

  /** What the host told about the request on this thread, while the filter runs. */
  private static final ThreadLocal<Told> TOLD = new ThreadLocal<>();

  private static final class Told {
    String operation = "none";
    String outcome = "unknown";
    String errorId = "none";
    Optional<String> traceId = Optional.empty();
    Optional<String> actor = Optional.empty();
  }

  private final String mountPath;
  private final boolean log;
  private final List<JarvisRequest.Listener> listeners;
  private final LongSupplier nanoTime;
  private final OperationRoutes routes = new OperationRoutes();

  /**
   * @param mountPath where the Jarvis servlet is mounted ({@code /jarvis}), the route's prefix
   * @param log whether to log each request
   * @param listeners told of each request (metrics)
   * @param nanoTime the clock requests are timed by ({@code System::nanoTime})
   */
  public JarvisRequestObserver(
      String mountPath,
      boolean log,
      List<JarvisRequest.Listener> listeners,
      LongSupplier nanoTime) {
    this.mountPath =
        mountPath.endsWith("/") ? mountPath.substring(0, mountPath.length() - 1) : mountPath;
    this.log = log;
    this.listeners = List.copyOf(listeners);
    this.nanoTime = nanoTime;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    if (!(req instanceof HttpServletRequest request)
        || !(res instanceof HttpServletResponse response)) {
      chain.doFilter(req, res);
      return;
    }
    Told told = new Told();
    Told outer = TOLD.get();
    TOLD.set(told);
    long start = nanoTime.getAsLong();
    try {
      chain.doFilter(request, response);
    } finally {
      TOLD.set(outer);
      observed(request, response.getStatus(), told, Duration.ofNanos(nanoTime.getAsLong() - start));
    }
  }

  private void observed(HttpServletRequest request, int status, Told told, Duration took) {
    String path = request.getRequestURI();
    String within = path.startsWith(mountPath) ? path.substring(mountPath.length()) : path;
    String route =
        routes
            .find(request.getMethod(), within)
            .map(r -> mountPath + r.operation().path())
            .orElse("UNKNOWN");
    // The Actor the host acted for, else the one the caller claimed (a refusal by the guard).
    String actor =
        told.actor
            .or(() -> Optional.ofNullable(request.getHeader("Jarvis-Actor-Id")))
            .map(a -> PLAIN_ID.matcher(a).matches() ? a : "(not an id)")
            .orElse("-");
    String traceId =
        told.traceId
            .or(
                () ->
                    TraceParent.traceId(Optional.ofNullable(request.getHeader(TraceParent.HEADER))))
            .orElse("-");
    if (SPRING_WEB_OBSERVATION && !route.equals("UNKNOWN")) {
      HttpServerRequests.tagRoute(request, route);
    }
    JarvisRequest observed =
        new JarvisRequest(
            request.getMethod(),
            route.equals("UNKNOWN") ? "(not a Jarvis path)" : printable(path),
            route,
            status,
            actor,
            told.operation,
            told.outcome,
            told.errorId,
            traceId,
            took);
    if (log) {
      LOG.info(
          "{} {} {} actor={} operation={} outcome={} error_id={} trace_id={} {}ms",
          observed.method(),
          observed.path(),
          observed.status(),
          observed.actor(),
          observed.operation(),
          observed.outcome(),
          observed.errorId(),
          observed.traceId(),
          took.toMillis());
    }
    for (JarvisRequest.Listener listener : listeners) {
      try {
        listener.observed(observed);
      } catch (RuntimeException e) {
        LOG.warn("a JarvisRequest.Listener failed", e);
      }
    }
  }

  private static final boolean SPRING_WEB_OBSERVATION =
      org.springframework.util.ClassUtils.isPresent(
          "org.springframework.web.filter.ServerHttpObservationFilter",
          JarvisRequestObserver.class.getClassLoader());

  /**
   * The service's {@code http.server.requests} (Spring's observation filter, around this one) tags
   * a request with the handler's path pattern; the Jarvis servlet is no handler of Spring MVC's, so
   * without this every Jarvis request would be {@code uri=UNKNOWN}. Apart, so that this class loads
   * without spring-web.
   */
  private static final class HttpServerRequests {
    static void tagRoute(HttpServletRequest request, String route) {
      org.springframework.web.filter.ServerHttpObservationFilter.findObservationContext(request)
          .ifPresent(context -> context.setPathPattern(route));
    }
  }

  /** A path as it may appear in a log line: no control characters (no forged lines). */
  private static String printable(String path) {
    return path.codePoints().anyMatch(Character::isISOControl) ? "(unprintable)" : path;
  }

  private static void tell(
      String operation,
      String outcome,
      String errorId,
      Optional<String> trace,
      Optional<String> actor) {
    Told told = TOLD.get();
    if (told != null) {
      told.operation = operation;
      told.outcome = outcome;
      told.errorId = errorId;
      told.traceId = trace;
      told.actor = actor;
    }
  }

  @Override
  public void accepted(HandledCall call) {
    tell(
        call.call().operationId(),
        "accepted",
        "none",
        call.call().traceId(),
        Optional.of(call.call().actorId()));
  }

  @Override
  public void replayed(HandledCall call) {
    tell(
        call.call().operationId(),
        "replayed",
        "none",
        call.call().traceId(),
        Optional.of(call.call().actorId()));
  }

  @Override
  public void refused(RefusedCall refusal) {
    tell(
        refusal.operationId().orElse("none"),
        "refused",
        refusal.errorId().getValue(),
        Optional.of(refusal.traceId()),
        refusal.actorId());
  }

  @Override
  public void failed(FailedCall failure) {
    tell(
        failure.operationId().orElse("none"),
        "failed",
        failure.errorId().getValue(),
        Optional.of(failure.traceId()),
        failure.actorId());
  }
}
