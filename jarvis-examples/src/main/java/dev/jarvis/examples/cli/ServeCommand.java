package dev.jarvis.examples.cli;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code serve --port N --token T [--policy FILE]... [--admin-actor ID]}: runs the reference host
 * until stopped (SIGTERM or Ctrl-C closes it cleanly). HostAuth is {@code Authorization: Bearer T};
 * each Policy file is one JSON {@code Policy} record; the admin Actor may register Workers and
 * Actors. One log line per request on stderr, never the token.
 */
final class ServeCommand {

  /** The reference host's per-request logger. */
  static final String REQUEST_LOG = "dev.jarvis.host.reference.requests";

  private ServeCommand() {}

  /** Serves until the JVM is asked to stop. */
  static int run(String[] args, PrintStream out) throws Exception {
    return run(args, out, new CountDownLatch(1));
  }

  /** Serves until {@code stop} is counted down (tests) or the JVM is asked to stop. */
  static int run(String[] args, PrintStream out, CountDownLatch stop) throws Exception {
    Flags flags = Flags.parse(args, "--port", "--token", "--policy", "--admin-actor");
    int port = port(flags.required("--port"));
    String token = flags.required("--token");
    String admin = flags.get("--admin-actor").orElse(HostConfig.DEFAULT_ADMIN_ACTOR_ID);
    ReferenceHostConfig config =
        ReferenceHostConfig.of(token).withPort(port).withHost(b -> b.adminActorId(admin));
    for (String file : flags.all("--policy")) {
      config = config.withPolicy(policy(file));
    }
    // One line per log record (JUL's default takes two); set before the first record is written.
    System.setProperty(
        "java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tLZ %4$s %5$s%n");
    ReferenceHost host;
    try {
      host = ReferenceHost.start(config);
    } catch (RuntimeException e) {
      throw new CliException("cannot listen on port " + port + ": " + rootMessage(e));
    }
    Thread closer =
        new Thread(
            () -> {
              host.close();
              out.println("Jarvis reference host stopped");
              out.flush();
            },
            "jarvis-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(closer);
    out.printf(
        "Jarvis reference host listening on %s (admin Actor %s, %d Policy file(s)); Ctrl-C stops it%n",
        host.baseUri(), admin, flags.all("--policy").size());
    out.flush();
    stop.await();
    Runtime.getRuntime().removeShutdownHook(closer);
    closer.run();
    return 0;
  }

  private static int port(String text) throws CliException {
    try {
      int port = Integer.parseInt(text);
      if (port < 0 || port > 65535) {
        throw new NumberFormatException();
      }
      return port;
    } catch (NumberFormatException e) {
      throw new CliException("--port needs a port number (0–65535), got '" + text + "'");
    }
  }

  private static JsonNode policy(String file) throws CliException {
    JsonNode policy;
    try {
      policy = JarvisJson.mapper().readTree(Files.readAllBytes(Path.of(file)));
    } catch (JacksonException e) {
      throw new CliException(file + ": not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new CliException("cannot read policy file " + file);
    }
    List<ProtocolViolation> violations = PayloadValidator.forSpec().validate("Policy", policy);
    if (!violations.isEmpty()) {
      ProtocolViolation first = violations.get(0);
      throw new CliException(
          file + ": not a valid Policy: " + first.errorId().getValue() + " at " + first.field());
    }
    return policy;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
