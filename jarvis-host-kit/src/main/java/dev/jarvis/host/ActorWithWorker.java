package dev.jarvis.host;

import java.util.Objects;
import java.util.Optional;

/**
 * An Actor as stored together with the Worker its {@code worker_id} names, as {@link
 * RecordStore#actorWithWorker} reads them.
 *
 * @param actor the Actor, outside any WorkSession
 * @param worker its Worker, if that is registered
 */
public record ActorWithWorker(StoredRecord actor, Optional<StoredRecord> worker) {

  public ActorWithWorker {
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(worker, "worker");
  }
}
