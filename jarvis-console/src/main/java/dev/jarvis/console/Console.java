package dev.jarvis.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The review console, decided without a web runtime: the page ({@code index.html}, one JS module,
 * one style sheet, all resources of this jar: nothing is fetched from elsewhere at run time) under
 * {@link #mount()}, and its JSON API under {@code <mount>/api/}, which acts as the signed-in human
 * through {@code JarvisClient} against the host's own address (so it can do nothing the human's
 * Actor could not do with the client). A binding asks {@link #handles} and writes what {@link
 * #answer} returns; every answer carries {@link ConsoleHeaders#security()}.
 *
 * <p>The page keeps the human's token in its own memory and sends it as {@code Authorization:
 * Bearer} with the Actor id on every API call; the API forwards both to the host and nowhere else,
 * never logs them and never puts them in a URL. A bearer token needs no CSRF defence: a cross-site
 * request cannot carry it; the API takes JSON bodies only. Where the service signs the human in
 * with its own login instead (a session cookie), the binding passes a {@link SessionCaller}: the
 * API then acts with that session and answers a state-changing call only with the service's CSRF
 * token.
 */
public final class Console {

  /** Where the reference host serves it. */
  public static final String DEFAULT_MOUNT = "/console";

  private static final String ASSETS = "assets/";

  /** The page's files: path under the mount → (resource, content type). */
  private static final Map<String, String[]> PAGE =
      Map.of(
          "/", new String[] {"index.html", "text/html; charset=utf-8"},
          "/console.js", new String[] {"console.js", "text/javascript; charset=utf-8"},
          "/console.css", new String[] {"console.css", "text/css; charset=utf-8"});

  private final String mount;
  private final URI host;
  private final Clock clock;
  private final ConsoleApi api;

  private Console(String mount, URI host, Clock clock, ReviewRules rules) {
    this.mount = mount;
    this.host = host;
    this.clock = clock;
    this.api = new ConsoleApi(host, clock, rules);
  }

  /**
   * A console at {@link #DEFAULT_MOUNT} whose API reaches the host at {@code host} (its protocol
   * root, e.g. {@code http://127.0.0.1:8080/}) with request timestamps from {@code clock} (the
   * host's own: the timestamps it checks for freshness).
   */
  public static Console forHost(URI host, Clock clock) {
    return forHost(DEFAULT_MOUNT, host, clock);
  }

  /** As {@link #forHost(URI, Clock)}, served under {@code mount} (e.g. {@code /jarvis/console}). */
  public static Console forHost(String mount, URI host, Clock clock) {
    Objects.requireNonNull(mount, "mount");
    if (!mount.startsWith("/") || mount.endsWith("/")) {
      throw new IllegalArgumentException(
          "a mount starts with / and does not end with it: " + mount);
    }
    return new Console(mount, host, clock, ReviewRules.NONE);
  }

  /**
   * This console showing, with each Request, the rule of its WorkSession's Policy that required the
   * review, as {@code rules} evaluates it on the host (the reference host and the starter pass
   * {@code dev.jarvis.host.RequestPolicyEvaluation}).
   */
  public Console withReviewRules(ReviewRules rules) {
    Objects.requireNonNull(rules, "rules");
    return new Console(mount, host, clock, rules);
  }

  /** The path it is served under, without a trailing slash. */
  public String mount() {
    return mount;
  }

  /** The page's address on a host served at {@code base} (e.g. {@code http://127.0.0.1:8080/}). */
  public URI pageOn(URI base) {
    return base.resolve(mount + "/");
  }

  /** Whether {@code path} (the request's path, undecoded) is the console's. */
  public boolean handles(String path) {
    return path.equals(mount) || path.startsWith(mount + "/");
  }

  /** Whether the answer to {@code path} may block (an API call); the page's files never do. */
  public boolean blocks(String path) {
    return path.startsWith(mount + ConsoleApi.PREFIX);
  }

  /**
   * The answer to a request whose path {@link #handles}. The API blocks while it calls the host (a
   * binding calls this off its I/O threads).
   *
   * @param method the HTTP method
   * @param path the path, undecoded
   * @param rawQuery the query, undecoded, or empty
   * @param headers a request header by name (case-insensitive)
   * @param body the request body (the binding has read at most {@link #MAX_BODY_BYTES} + 1)
   */
  public ConsoleAnswer answer(
      String method,
      String path,
      Optional<String> rawQuery,
      Function<String, Optional<String>> headers,
      byte[] body) {
    return answer(method, path, rawQuery, headers, body, Optional.empty());
  }

  /**
   * As {@link #answer(String, String, Optional, Function, byte[])}, for a caller the service's own
   * login signed in ({@code session}, found by the binding on this request): without a bearer token
   * the API acts with that session, and answers a state-changing call only when the request carried
   * the session's CSRF token.
   */
  public ConsoleAnswer answer(
      String method,
      String path,
      Optional<String> rawQuery,
      Function<String, Optional<String>> headers,
      byte[] body,
      Optional<SessionCaller> session) {
    Objects.requireNonNull(session, "session");
    if (path.equals(mount)) {
      // Relative addresses in the page need the trailing slash.
      Map<String, String> redirect = ConsoleHeaders.security();
      redirect.put("Location", mount + "/");
      return new ConsoleAnswer(308, redirect, new byte[0]);
    }
    String local = path.substring(mount.length());
    if (local.startsWith(ConsoleApi.PREFIX)) {
      return api.answer(
          method, local.substring(ConsoleApi.PREFIX.length()), rawQuery, headers, body, session);
    }
    String[] file = PAGE.get(local);
    if (file == null) {
      return text(404, "not found");
    }
    if (!method.equals("GET") && !method.equals("HEAD")) {
      Map<String, String> allow = ConsoleHeaders.with("text/plain; charset=utf-8");
      allow.put("Allow", "GET, HEAD");
      return new ConsoleAnswer(405, allow, bytes("method not allowed\n"));
    }
    byte[] content = method.equals("HEAD") ? new byte[0] : resource(file[0]);
    return new ConsoleAnswer(200, ConsoleHeaders.with(file[1]), content);
  }

  /** The largest request body the API reads; a binding reads one byte more to tell. */
  public static final int MAX_BODY_BYTES = ConsoleApi.MAX_BODY_BYTES;

  static ConsoleAnswer text(int status, String text) {
    return new ConsoleAnswer(
        status, ConsoleHeaders.with("text/plain; charset=utf-8"), bytes(text + "\n"));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] resource(String name) {
    try (InputStream in = Console.class.getResourceAsStream(ASSETS + name)) {
      if (in == null) {
        throw new IllegalStateException("the console's " + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
