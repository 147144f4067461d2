package dev.jarvis.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code event-stream} capability through the starter's servlet on a real embedded Tomcat: the
 * servlet runs a stream in async mode, a member sees each event as it is committed, and stopping
 * the service ends the stream cleanly ({@code : end shutdown}) instead of holding the graceful
 * drain. Open streams hold no thread each.
 */
@Timeout(60)
class EventStreamOnTomcatTest {

  static final String TOKEN = "stream-token-" + UUID.randomUUID();
  static final String HUMAN = "actor-human-stream-1";

  @Test
  void aMembersStreamOnTomcatCarriesEachEventAndEndsCleanlyWhenTheServiceStops() throws Exception {
    Path config = Files.createDirectories(Path.of("target", "stream-" + UUID.randomUUID()));
    Path credentials =
        Files.writeString(
            config.resolve("credentials.json"),
            "[{\"token_sha256\": \""
                + Credentials.sha256Hex(TOKEN)
                + "\", \"actors\": [\""
                + HostConfig.DEFAULT_ADMIN_ACTOR_ID
                + "\", \""
                + HUMAN
                + "\"], \"admin\": true}]");
    Path policy =
        Files.writeString(config.resolve("policy.json"), SampleRecords.policy().toString());
    ConfigurableApplicationContext service =
        new SpringApplicationBuilder(PlainPathsOnTomcatTest.Service.class)
            .properties(
                "server.port=0",
                "server.shutdown=graceful",
                "jarvis.host.store.kind=memory",
                "jarvis.host.credentials-file=file:" + credentials.toAbsolutePath(),
                "jarvis.host.policies=file:" + policy.toAbsolutePath(),
                "jarvis.host.policy-assignments[0]=policy-bounded-001=*")
            .run();
    int port = ((WebServerApplicationContext) service).getWebServer().getPort();
    String base = "http://127.0.0.1:" + port + "/jarvis";
    try (JarvisClient admin =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(base)
                .hostAuth("Bearer " + TOKEN)
                .actorId(HostConfig.DEFAULT_ADMIN_ACTOR_ID)
                .build())) {
      admin.registerWorker(admin.records().worker("w-human-s", WorkerType.HUMAN, "reviewer"));
      admin.registerWorker(admin.records().worker("w-agent-s", WorkerType.AGENT, "assistant"));
      admin.registerActor(admin.records().actor(HUMAN, "w-human-s", ActorType.HUMAN));
      JarvisClient human = admin.as(HUMAN);
      String ws =
          human
              .createWorkSession(
                  human
                      .records()
                      .workSession(
                          "Streams on Tomcat.",
                          "w-human-s",
                          "w-agent-s",
                          SampleRecords.policy().path("id").asText()))
              .getId();
      HttpResponse<java.util.stream.Stream<String>> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(base + "/work-sessions/" + ws + "/events"))
                      .header("Accept", EventStream.MEDIA_TYPE)
                      .header("Authorization", "Bearer " + TOKEN)
                      .header("Jarvis-Protocol-Version", "v0.1")
                      .header("Jarvis-Actor-Id", HUMAN)
                      .build(),
                  HttpResponse.BodyHandlers.ofLines());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type").orElseThrow())
          .startsWith(EventStream.MEDIA_TYPE);
      Iterator<String> lines = response.body().iterator();
      assertThat(next(lines).get(10, TimeUnit.SECONDS).path("sequence").asLong()).isEqualTo(1);
      CompletableFuture<JsonNode> second = next(lines);
      human.appendJarvisEvent(
          ws,
          ProtocolRecords.event(
              "note.added", JarvisEventPayload.ObjectTypeEnum.WORK_SESSION, ws, "added"));
      assertThat(second.get(10, TimeUnit.SECONDS).path("type").asText()).isEqualTo("note.added");
      assertMoreStreamsHoldNoThreadEach(port, ws);
      CompletableFuture<String> end =
          CompletableFuture.supplyAsync(
              () -> {
                while (lines.hasNext()) {
                  String line = lines.next();
                  if (line.startsWith(EventStream.END_PREFIX)) {
                    return line;
                  }
                }
                return "closed without an end";
              });
      service.close();
      assertThat(end.get(10, TimeUnit.SECONDS)).isEqualTo(EventStream.END_PREFIX + "shutdown");
    } finally {
      service.close();
    }
  }

  /**
   * Opens as many more streams as the Actor may hold (15), each read up to its first frame on this
   * thread, and counts the JVM's threads: none is held per stream (the servlet waits in async mode
   * and writes without blocking).
   */
  private static void assertMoreStreamsHoldNoThreadEach(int port, String ws) throws Exception {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    java.util.List<java.net.Socket> sockets = new java.util.ArrayList<>();
    int before = threads.getThreadCount();
    try {
      for (int i = 0; i < 15; i++) {
        java.net.Socket socket = new java.net.Socket("127.0.0.1", port);
        sockets.add(socket);
        socket.setSoTimeout(10_000);
        String request =
            "GET /jarvis/work-sessions/"
                + ws
                + "/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
                + "Authorization: Bearer "
                + TOKEN
                + "\r\nJarvis-Protocol-Version: v0.1\r\nJarvis-Actor-Id: "
                + HUMAN
                + "\r\n\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        java.io.BufferedReader in =
            new java.io.BufferedReader(
                new java.io.InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.startsWith("data:")) {
          // status line, headers, the first frame's id
        }
        assertThat(line).as("stream %d carried its first frame", i).isNotNull();
      }
      // A thread per stream would be 15 more.
      assertThat(threads.getThreadCount() - before).isLessThan(5);
    } finally {
      for (java.net.Socket socket : sockets) {
        socket.close();
      }
    }
  }

  private static CompletableFuture<JsonNode> next(Iterator<String> lines) {
    return CompletableFuture.supplyAsync(
        () -> {
          EventStream.Reader reader = new EventStream.Reader();
          while (lines.hasNext()) {
            var item = reader.line(lines.next());
            if (item.isPresent() && item.get() instanceof EventStream.Reader.Item.Frame f) {
              try {
                return JarvisJson.mapper().readTree(f.data());
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            }
          }
          throw new IllegalStateException("the stream ended");
        });
  }
}
