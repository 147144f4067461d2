package dev.jarvis.client;

import java.util.concurrent.CompletionException;

/** Blocking and asynchronous ways to run a call; tests run both. */
enum Mode {
  BLOCKING {
    @Override
    <T> JarvisResponse<T> run(JarvisClient client, JarvisCall<T> call) {
      return client.execute(call);
    }
  },
  ASYNC {
    @Override
    <T> JarvisResponse<T> run(JarvisClient client, JarvisCall<T> call) {
      try {
        return client.executeAsync(call).join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof RuntimeException cause) {
          throw cause;
        }
        throw e;
      }
    }
  };

  abstract <T> JarvisResponse<T> run(JarvisClient client, JarvisCall<T> call);
}
