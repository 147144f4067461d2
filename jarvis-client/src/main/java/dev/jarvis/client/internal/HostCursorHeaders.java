package dev.jarvis.client.internal;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import java.net.http.HttpHeaders;
import java.util.Optional;

/**
 * The optional {@code cursor-headers} capability (see {@code docs/protocol-decisions.md}): a host
 * that lists it in {@code Jarvis-Host-Capabilities} reports a WorkSession's new revision and last
 * event hash on every accepted scoped mutation, saving the client a re-read.
 */
public final class HostCursorHeaders {

  /** The capability token. */
  public static final String CAPABILITY = JarvisHeaders.CURSOR_HEADERS_CAPABILITY;

  /** Response header: the WorkSession's revision after the mutation. */
  public static final String REVISION = JarvisHeaders.WORK_SESSION_REVISION;

  /** Response header: the WorkSession's last event hash after the mutation. */
  public static final String LAST_EVENT_HASH = JarvisHeaders.LAST_EVENT_HASH;

  private HostCursorHeaders() {}

  /**
   * The cursor the host reports, if it advertises the capability and sent both headers.
   *
   * @throws IllegalArgumentException the host advertises the capability but sent a malformed value
   */
  public static Optional<ChainCursor> read(HttpHeaders headers) {
    if (!advertises(headers)) {
      return Optional.empty();
    }
    Optional<String> revision = headers.firstValue(REVISION);
    Optional<String> hash = headers.firstValue(LAST_EVENT_HASH);
    if (revision.isEmpty() || hash.isEmpty()) {
      return Optional.empty();
    }
    // A malformed value from a host that advertises the capability is off-spec: let it throw.
    return Optional.of(new ChainCursor(Long.parseLong(revision.get().trim()), hash.get().trim()));
  }

  /** Whether a comma-separated token of {@code Jarvis-Host-Capabilities} is the capability. */
  private static boolean advertises(HttpHeaders headers) {
    // Read on every answer of a scoped mutation: plain loops, no stream.
    for (String value : headers.allValues(JarvisHeaders.HOST_CAPABILITIES)) {
      for (String token : value.split(",")) {
        if (token.trim().equals(CAPABILITY)) {
          return true;
        }
      }
    }
    return false;
  }
}
