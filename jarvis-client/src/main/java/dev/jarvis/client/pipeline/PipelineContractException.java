package dev.jarvis.client.pipeline;

/**
 * A link broke the pipeline's contract, so the request it would send is not the call's: it passed
 * the request on twice, or answered without passing it on, or changed the body bytes, the
 * idempotency key, the WorkSession cursor, the method, the URI or the attempt number of a request
 * whose key is taken, or passed on a request of another call. Nothing more is sent for the call;
 * the message names the link. A bug in a policy, not a failure of the host: not a {@link
 * dev.jarvis.client.JarvisFailure}.
 */
public final class PipelineContractException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final String link;

  public PipelineContractException(String link, String broken) {
    super("pipeline link '" + link + "' " + broken);
    this.link = link;
  }

  /** The name of the link that broke the contract ({@link JarvisPolicy#name()}). */
  public String link() {
    return link;
  }
}
