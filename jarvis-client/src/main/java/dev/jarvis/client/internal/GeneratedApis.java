package dev.jarvis.client.internal;

import dev.jarvis.client.generated.api.AttributionApi;
import dev.jarvis.client.generated.api.ControlPlaneApi;
import dev.jarvis.client.generated.api.EvidenceApi;
import dev.jarvis.client.generated.api.FeedbackApi;
import dev.jarvis.client.generated.api.LearningApi;
import dev.jarvis.client.generated.api.WorkSessionsApi;
import dev.jarvis.client.generated.api.WorkersApi;
import dev.jarvis.client.generated.invoker.ApiClient;

/** The generated API classes, all over one configured {@link ApiClient}. */
public final class GeneratedApis {
  public final WorkersApi workers;
  public final WorkSessionsApi workSessions;
  public final ControlPlaneApi controlPlane;
  public final AttributionApi attribution;
  public final LearningApi learning;
  public final EvidenceApi evidence;
  public final FeedbackApi feedback;

  public GeneratedApis(ApiClient client) {
    this.workers = new WorkersApi(client);
    this.workSessions = new WorkSessionsApi(client);
    this.controlPlane = new ControlPlaneApi(client);
    this.attribution = new AttributionApi(client);
    this.learning = new LearningApi(client);
    this.evidence = new EvidenceApi(client);
    this.feedback = new FeedbackApi(client);
  }
}
