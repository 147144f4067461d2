package dev.jarvis.console;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The headers every console answer carries, page and API alike. The page runs only the module's own
 * script and style (no inline script or style, no other origin, no framing, no form posts); nothing
 * is cached, sniffed or sent as a referrer, so neither a token nor a Request's text leaves through
 * a header.
 */
public final class ConsoleHeaders {

  /** The Content-Security-Policy of every console answer. */
  public static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
          + " img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private ConsoleHeaders() {}

  /** The security headers, in a fixed order. */
  public static Map<String, String> security() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Referrer-Policy", "no-referrer");
    headers.put("X-Frame-Options", "DENY");
    headers.put("Cross-Origin-Opener-Policy", "same-origin");
    headers.put("Cross-Origin-Resource-Policy", "same-origin");
    headers.put("Cache-Control", "no-store");
    return headers;
  }

  /** The security headers and a content type. */
  static Map<String, String> with(String contentType) {
    Map<String, String> headers = security();
    headers.put("Content-Type", contentType);
    return headers;
  }
}
