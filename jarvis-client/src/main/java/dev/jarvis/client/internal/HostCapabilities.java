package dev.jarvis.client.internal;

import dev.jarvis.core.headers.JarvisHeaders;
import java.net.http.HttpHeaders;

/**
 * What a host declares it serves, read from an answer's {@code Jarvis-Host-Capabilities}: the
 * client keeps no list of its own, so each answer says it afresh (a host without the header
 * declares nothing).
 */
public final class HostCapabilities {

  private HostCapabilities() {}

  /** Whether a comma-separated token of {@code Jarvis-Host-Capabilities} is {@code name}. */
  public static boolean declares(HttpHeaders headers, String name) {
    for (String value : headers.allValues(JarvisHeaders.HOST_CAPABILITIES)) {
      for (String token : value.split(",")) {
        if (token.trim().equals(name)) {
          return true;
        }
      }
    }
    return false;
  }
}
