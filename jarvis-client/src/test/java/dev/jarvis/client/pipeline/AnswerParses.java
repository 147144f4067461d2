package dev.jarvis.client.pipeline;

/** How many times an answer's body was parsed, for tests outside this package. */
public final class AnswerParses {

  private AnswerParses() {}

  public static int of(PipelineResponse answer) {
    return answer.parses();
  }
}
