package dev.jarvis.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.headers.HeaderLookup;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One {@code event-stream} request of the suite, read on a thread of its own as it arrives: what
 * the host sent is queued as it is read ({@link Seen}), and a check takes it with a bounded {@link
 * #next} wait, never a sleep. An answer that is not a stream (a refusal, or the page where the host
 * does not serve streams) is read whole. Not recorded with the run's exchanges: a stream has no
 * whole answer to judge offline.
 */
final class EventStreamConnection implements AutoCloseable {

  /** What the host sent, in order. */
  sealed interface Seen {

    /** An answer that is not a stream, read whole. */
    record Answered(int status, Map<String, List<String>> headers, byte[] body) implements Seen {

      Optional<String> header(String name) {
        return HeaderLookup.ofLists(headers).apply(name);
      }

      JsonNode json() {
        try {
          return body.length == 0 ? MissingNode.getInstance() : JarvisJson.mapper().readTree(body);
        } catch (IOException e) {
          return MissingNode.getInstance();
        }
      }

      /** The ProtocolError without its {@code trace_id}, which differs per answer. */
      JsonNode untraced() {
        JsonNode body = json().deepCopy();
        if (body instanceof ObjectNode object) {
          object.remove("trace_id");
        }
        return body;
      }

      String describe() {
        String text = new String(body, StandardCharsets.UTF_8);
        return status
            + " "
            + header("Content-Type").orElse("(no Content-Type)")
            + " "
            + (text.length() > 300 ? text.substring(0, 300) + "…" : text);
      }
    }

    /** The stream's status line and headers: {@code 200}, {@code text/event-stream}. */
    record Started(Map<String, List<String>> headers) implements Seen {}

    /** An event's frame. */
    record Frame(Optional<String> id, String data) implements Seen {}

    /** A comment: a heartbeat, or an end naming its reason. */
    record Comment(String text) implements Seen {

      Optional<String> endReason() {
        return new EventStream.Reader.Item.Comment(text).endReason();
      }
    }

    /** The host closed the connection. */
    record Closed() implements Seen {}

    /** The connection failed before an answer or while reading it. */
    record Failed(String why) implements Seen {}
  }

  private final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
  private volatile boolean closed;
  private volatile InputStream body;

  private EventStreamConnection() {}

  /** Sends {@code request} and starts reading its answer as it comes. */
  static EventStreamConnection open(HttpClient http, HttpRequest request) {
    EventStreamConnection connection = new EventStreamConnection();
    http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
        .whenComplete(
            (answer, failure) -> {
              if (failure != null) {
                connection.seen.add(new Seen.Failed(failure.toString()));
                return;
              }
              Thread reader = new Thread(() -> connection.read(answer), "conformance-stream");
              reader.setDaemon(true);
              reader.start();
            });
    return connection;
  }

  /** Whether an answer is a stream: {@code 200} and {@code Content-Type: text/event-stream}. */
  static boolean isStream(int status, Optional<String> contentType) {
    return status == 200
        && contentType
            .map(c -> c.split(";")[0].trim().toLowerCase(Locale.ROOT))
            .filter(EventStream.MEDIA_TYPE::equals)
            .isPresent();
  }

  private void read(HttpResponse<InputStream> answer) {
    body = answer.body();
    if (closed) {
      quietlyClose(body);
      return;
    }
    Map<String, List<String>> headers = answer.headers().map();
    try (InputStream in = body) {
      if (!isStream(answer.statusCode(), HeaderLookup.ofLists(headers).apply("Content-Type"))) {
        seen.add(new Seen.Answered(answer.statusCode(), headers, in.readAllBytes()));
        return;
      }
      seen.add(new Seen.Started(headers));
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      EventStream.Reader reader = new EventStream.Reader();
      String line;
      while ((line = lines.readLine()) != null) {
        reader
            .line(line)
            .ifPresent(
                item -> {
                  if (item instanceof EventStream.Reader.Item.Frame frame) {
                    seen.add(new Seen.Frame(frame.id(), frame.data()));
                  } else if (item instanceof EventStream.Reader.Item.Comment comment) {
                    seen.add(new Seen.Comment(comment.text()));
                  }
                });
      }
      seen.add(new Seen.Closed());
    } catch (IOException e) {
      if (!closed) {
        seen.add(new Seen.Failed(e.toString()));
      }
    }
  }

  /** The next thing the host sent, waiting up to {@code atMost}; empty when nothing came. */
  Optional<Seen> next(Duration atMost) {
    try {
      return Optional.ofNullable(seen.poll(Math.max(0, atMost.toNanos()), TimeUnit.NANOSECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CheckFailure("interrupted while reading a stream");
    }
  }

  /** Leaves the stream: closes the connection (once its answer has come, if not yet). */
  @Override
  public void close() {
    closed = true;
    InputStream in = body;
    if (in != null) {
      quietlyClose(in);
    }
  }

  private static void quietlyClose(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // Leaving anyway.
    }
  }
}
