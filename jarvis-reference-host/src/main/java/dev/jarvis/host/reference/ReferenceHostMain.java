package dev.jarvis.host.reference;

import dev.jarvis.core.JarvisJson;
import dev.jarvis.store.jdbc.StoreSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A bare process for the reference host, for tests that need one to kill (crash consistency) and
 * for quick runs without the CLI: {@code java -cp ... dev.jarvis.host.reference.ReferenceHostMain
 * PORT TOKEN STORE [POLICY_FILE]...}, where STORE is what {@code serve --store} takes ({@code
 * memory}, {@code jdbc:postgresql://...}, {@code jdbc:sqlite:FILE}). The database password comes
 * from {@code JARVIS_STORE_PASSWORD}. It prints {@code listening on URI} once it serves, and stops
 * gracefully on SIGTERM. {@code serve} in {@code jarvis-cli} is the tool for people.
 */
public final class ReferenceHostMain {

  private ReferenceHostMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length < 3) {
      System.err.println("usage: ReferenceHostMain PORT TOKEN STORE [POLICY_FILE]...");
      System.exit(2);
    }
    StoreSpec store = StoreSpec.parse(args[2]);
    ReferenceHostConfig.Builder config =
        ReferenceHostConfig.demo(args[1])
            .port(Integer.parseInt(args[0]))
            .stores(store.open(StoreSpec.passwordFromEnvironment()));
    for (int i = 3; i < args.length; i++) {
      config.policy(JarvisJson.mapper().readTree(Files.readAllBytes(Path.of(args[i]))));
    }
    ReferenceHost host = ReferenceHost.start(config.build());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  host.close();
                  stopped.countDown();
                },
                "jarvis-host-shutdown"));
    System.out.println("listening on " + host.baseUri() + " store " + store.describe());
    System.out.flush();
    stopped.await();
  }
}
