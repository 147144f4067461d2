package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.signature.EventSignature;
import dev.jarvis.core.signature.SigningKey;
import dev.jarvis.samples.SampleRecords;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Live checks of Actor-signed events, where the suite was told an Actor the host requires to sign
 * ({@link RequiredSigner}; without one each is skipped, saying so): an unsigned and a badly signed
 * event of that Actor are refused with {@code unauthorized_actor}, and one signed with its key is
 * appended, the positive control that makes the refusals mean something.
 */
final class SignatureChecks {

  private static final String NO_SIGNER =
      "no required signer given (--signer-actor, --signer-key-id, --signer-key)";

  private SignatureChecks() {}

  static void run(CheckRunner runner, LiveHost live, Optional<RequiredSigner> signer) {
    String group = "signatures";
    runner.check(
        group,
        "an event signed with the key of an Actor that must sign is appended",
        () -> {
          RequiredSigner s = required(signer);
          return append(live, s, e -> EventSignature.sign(e, s.key()), true);
        });
    runner.check(
        group,
        "an unsigned event of an Actor that must sign is refused with unauthorized_actor",
        () -> append(live, required(signer), e -> e, false));
    runner.check(
        group,
        "an event signed by another key under the Actor's key id is refused with"
            + " unauthorized_actor",
        () -> {
          RequiredSigner s = required(signer);
          SigningKey other =
              new SigningKey(s.key().keyId(), SigningKey.generateKeyPair().getPrivate());
          return append(live, s, e -> EventSignature.sign(e, other), false);
        });
  }

  private static RequiredSigner required(Optional<RequiredSigner> signer) {
    return signer.orElseThrow(() -> new CheckSkipped(NO_SIGNER));
  }

  /**
   * Registers the signer, creates a WorkSession and has the signer append a signed-as-told note.
   */
  private static String append(
      LiveHost live, RequiredSigner signer, UnaryOperator<ObjectNode> sign, boolean accepted) {
    String actor = signer.actorId();
    expectSuccess(
        live.send(
            "registerActor",
            actor,
            live.headers("registerActor", live.registrar, null),
            SampleRecords.actor(actor, live.humanWorker, "human", live.now())));
    String session = live.newSession();
    ChainCursor at = live.cursor(session);
    ObjectNode event =
        EventChain.next(
            at,
            SampleRecords.eventDraft(live.id("evt"), session, actor, "note.recorded", live.now()));
    Exchange answer =
        live.send(
            "appendJarvisEvent",
            session,
            live.headers("appendJarvisEvent", actor, at),
            sign.apply(event));
    if (accepted) {
      JsonNode stored = expectSuccess(answer);
      if (!stored.path("signing_key_ref").asText().equals(signer.key().keyId())) {
        throw new CheckFailure("the host did not store the event's signing_key_ref as sent");
      }
    } else {
      expectRefusal(answer, "unauthorized_actor");
    }
    return null;
  }
}
