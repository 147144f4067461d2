package dev.jarvis.host.reference;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * How to start a {@link ReferenceHost}.
 *
 * @param bearerToken the HostAuth token: requests carry {@code Authorization: Bearer <token>}
 * @param port the loopback port, 0 for a free one
 * @param policies Policy records the host holds (the spec has no operation for Policies)
 * @param host further host settings (clock, trace ids, tolerance, retention, admin Actor, storage),
 *     applied to the builder
 */
public record ReferenceHostConfig(
    String bearerToken, int port, List<JsonNode> policies, UnaryOperator<HostConfig.Builder> host) {

  public ReferenceHostConfig {
    Objects.requireNonNull(bearerToken, "bearerToken");
    policies = List.copyOf(policies);
    Objects.requireNonNull(host, "host");
  }

  /** A host on a free loopback port with this token, no Policies and default settings. */
  public static ReferenceHostConfig of(String bearerToken) {
    return new ReferenceHostConfig(bearerToken, 0, List.of(), UnaryOperator.identity());
  }

  /** The same with another port. */
  public ReferenceHostConfig withPort(int port) {
    return new ReferenceHostConfig(bearerToken, port, policies, host);
  }

  /** The same holding one more Policy. */
  public ReferenceHostConfig withPolicy(JsonNode policy) {
    List<JsonNode> more = new ArrayList<>(policies);
    more.add(policy);
    return new ReferenceHostConfig(bearerToken, port, more, host);
  }

  /** The same with further host settings. */
  public ReferenceHostConfig withHost(UnaryOperator<HostConfig.Builder> settings) {
    UnaryOperator<HostConfig.Builder> before = host;
    return new ReferenceHostConfig(
        bearerToken, port, policies, b -> settings.apply(before.apply(b)));
  }

  HostConfig hostConfig() {
    return host.apply(HostConfig.builder(HostAuth.bearer(bearerToken))).build();
  }

  static InetAddress loopback() {
    return InetAddress.getLoopbackAddress();
  }
}
