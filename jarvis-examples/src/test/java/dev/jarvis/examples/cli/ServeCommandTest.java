package dev.jarvis.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.RetryPolicy;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Worker;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServeCommandTest {

  @TempDir Path dir;

  @Test
  void serveRunsTheReferenceHostWithItsTokenPolicyAndAdminUntilStopped() throws Exception {
    Path policy = Files.writeString(dir.resolve("policy.json"), DemoPolicy.JSON);
    PipedInputStream pipe = new PipedInputStream();
    PrintStream out = new PrintStream(new PipedOutputStream(pipe), true, StandardCharsets.UTF_8);
    BufferedReader lines = new BufferedReader(new InputStreamReader(pipe, StandardCharsets.UTF_8));
    CountDownLatch stop = new CountDownLatch(1);

    CompletableFuture<Integer> serving =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return ServeCommand.run(
                    new String[] {
                      "--port",
                      "0",
                      "--token",
                      "t0k3n",
                      "--policy",
                      policy.toString(),
                      "--admin-actor",
                      "ops-admin"
                    },
                    out,
                    stop);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    String banner = lines.readLine();
    Matcher url = Pattern.compile("listening on (http://\\S+)").matcher(banner);
    assertTrue(url.find(), banner);

    JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(url.group(1))
                .hostAuth("Bearer t0k3n")
                .actorId("ops-admin")
                .retryPolicy(RetryPolicy.NONE)
                .build());
    Worker worker =
        JarvisJson.mapper()
            .readValue(
                """
                {"id": "worker-1", "type": "human", "role": "r",
                 "authority_scope": {"grants": ["g"]}, "accountability_scope": {"accountable_for": ["a"]}}
                """,
                Worker.class);
    assertEquals("worker-1", client.registerWorker(worker).getId());
    JarvisProtocolException refused =
        assertThrows(
            JarvisProtocolException.class, () -> client.as("host-admin").registerWorker(worker));
    assertEquals(ProtocolErrorId.UNAUTHORIZED_ACTOR, refused.errorId());

    stop.countDown();
    assertEquals(0, serving.get(10, TimeUnit.SECONDS));
    assertTrue(lines.readLine().contains("stopped"));
  }

  @Test
  void anInvalidPolicyFileIsAUsageErrorNamingTheProblem() throws Exception {
    Path policy = Files.writeString(dir.resolve("policy.json"), "{\"id\": \"p\"}");
    CliException e =
        assertThrows(
            CliException.class,
            () ->
                ServeCommand.run(
                    new String[] {"--port", "0", "--token", "t", "--policy", policy.toString()},
                    new PrintStream(
                        new java.io.ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new CountDownLatch(1)));
    assertTrue(e.getMessage().contains("not a valid Policy"), e.getMessage());
  }
}
