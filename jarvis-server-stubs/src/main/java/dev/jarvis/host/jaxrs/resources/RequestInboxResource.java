package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.host.jaxrs.RequestInboxApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/**
 * The {@code request-inbox} read ({@link RequestInboxApi}): among {@link ProtocolResource#all()},
 * and one line, {@code config.register(RequestInboxResource.class)}, for an application that serves
 * the spec's operations with resource classes of its own. The binding declares {@code
 * request-inbox} only where a resource routes the read and the host's configuration declares it.
 */
@Path("")
public class RequestInboxResource extends ProtocolResource implements RequestInboxApi {

  @Override
  public Response listInboxRequests(
      String status,
      String after,
      String limit,
      String waitSeconds,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisRequiredCapabilities,
      String jarvisExtensions) {
    return respond();
  }
}
