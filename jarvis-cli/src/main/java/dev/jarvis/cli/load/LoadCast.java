package dev.jarvis.cli.load;

import java.util.Objects;

/**
 * The Actors a load run acts as.
 *
 * @param human a registered human Actor, who sends every request
 * @param humanWorker its Worker
 * @param agentWorker an agent Worker, named by each WorkSession
 */
public record LoadCast(String human, String humanWorker, String agentWorker) {
  public LoadCast {
    Objects.requireNonNull(human, "human");
    Objects.requireNonNull(humanWorker, "humanWorker");
    Objects.requireNonNull(agentWorker, "agentWorker");
  }
}
