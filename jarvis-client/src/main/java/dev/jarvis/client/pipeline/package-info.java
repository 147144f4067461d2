/**
 * The client's pipeline, open to policies of your own: {@link
 * dev.jarvis.client.pipeline.JarvisPolicy} is one link, {@link
 * dev.jarvis.client.pipeline.PipelineRequest} and {@link
 * dev.jarvis.client.pipeline.PipelineResponse} are what travels down and back up, {@link
 * dev.jarvis.client.pipeline.JarvisPipeline} lists a client's links in order. {@link
 * dev.jarvis.client.pipeline.OperationMetricsPolicy} is an example policy. See {@code
 * docs/client.md}.
 */
package dev.jarvis.client.pipeline;
