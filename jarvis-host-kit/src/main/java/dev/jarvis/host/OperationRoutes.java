package dev.jarvis.host;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.requestread.RequestRead;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the spec operation a method and path name, with its path parameters: the routing a binding
 * of the host kit needs when its HTTP runtime does not route by itself (the test kit's WireMock
 * stub, a thin server binding).
 */
public final class OperationRoutes {

  /**
   * A routed request.
   *
   * @param operation the spec operation
   * @param pathParameters path parameter values by name, decoded
   */
  public record Route(ProtocolOperation operation, Map<String, String> pathParameters) {}

  /**
   * An operation's path as a pattern; {@code literal} is the path's text before its first
   * parameter, which a matching path starts with, checked first: a request then runs the one
   * pattern of its own path, not those of the paths tried before.
   */
  private record Template(
      ProtocolOperation operation, String literal, Pattern pattern, List<String> names) {

    Optional<Matcher> match(String path) {
      if (!path.startsWith(literal)) {
        return Optional.empty();
      }
      Matcher m = pattern.matcher(path);
      return m.matches() ? Optional.of(m) : Optional.empty();
    }
  }

  private static final Pattern PARAMETER = Pattern.compile("\\{([a-z_]+)}");

  private final List<Template> templates = new ArrayList<>();

  /**
   * Routes for every operation of the spec, the {@code event-log} capability's read ({@link
   * EventLog#OPERATION}), the {@code request-read} capability's reads ({@link
   * RequestRead#operations()}) and the {@code request-inbox} capability's read ({@link
   * RequestInbox#OPERATION}); {@link ProtocolHost} answers the SDK's reads only where the host
   * declares their capability.
   */
  public OperationRoutes() {
    List<ProtocolOperation> operations = new ArrayList<>(ProtocolOperations.all());
    operations.add(EventLog.OPERATION);
    operations.addAll(RequestRead.operations());
    operations.add(RequestInbox.OPERATION);
    for (ProtocolOperation op : operations) {
      List<String> names = new ArrayList<>();
      Matcher m = PARAMETER.matcher(op.path());
      StringBuilder regex = new StringBuilder("^");
      int last = 0;
      while (m.find()) {
        regex.append(Pattern.quote(op.path().substring(last, m.start()))).append("([^/]+)");
        names.add(m.group(1));
        last = m.end();
      }
      regex.append(Pattern.quote(op.path().substring(last))).append("/?$");
      int firstParameter = op.path().indexOf('{');
      String literal = firstParameter < 0 ? op.path() : op.path().substring(0, firstParameter);
      templates.add(
          new Template(op, literal, Pattern.compile(regex.toString()), List.copyOf(names)));
    }
  }

  /**
   * Whether the spec has an operation at this path, whatever its method: a request there with the
   * wrong method is still the protocol's (a 405, not someone else's 404).
   */
  public boolean hasPath(String path) {
    return templates.stream().anyMatch(t -> t.match(path).isPresent());
  }

  /** The operation for this method and path, if the spec has one. */
  public Optional<Route> find(String method, String path) {
    for (Template t : templates) {
      if (!t.operation().httpMethod().equals(method)) {
        continue;
      }
      Optional<Matcher> matched = t.match(path);
      if (matched.isPresent()) {
        Matcher m = matched.get();
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < t.names().size(); i++) {
          values.put(t.names().get(i), URLDecoder.decode(m.group(i + 1), StandardCharsets.UTF_8));
        }
        return Optional.of(new Route(t.operation(), values));
      }
    }
    return Optional.empty();
  }
}
